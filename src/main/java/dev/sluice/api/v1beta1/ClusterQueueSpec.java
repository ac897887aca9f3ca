package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.ClusterQueueSpecFields;

/** Spec of a ClusterQueue: quota per flavor and resource, cohort, queueing and preemption policy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterQueueSpec extends ClusterQueueSpecFields {

    @JsonPropertyDescription("Cohort whose ClusterQueues borrow unused quota from each other.")
    private String cohort;

    @JsonPropertyDescription("When to try the next flavor.")
    private FlavorFungibility flavorFungibility;

    public String getCohort() {
        return cohort;
    }

    public void setCohort(String cohort) {
        this.cohort = cohort;
    }

    public FlavorFungibility getFlavorFungibility() {
        return flavorFungibility;
    }

    public void setFlavorFungibility(FlavorFungibility flavorFungibility) {
        this.flavorFungibility = flavorFungibility;
    }
}
