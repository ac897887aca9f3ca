package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Spec of a ClusterQueue: quota per flavor and resource, cohort, queueing and preemption policy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterQueueSpec extends ClusterQueueSpecFields {

    @JsonPropertyDescription("Cohort whose ClusterQueues borrow unused quota from each other.")
    private String cohortName;

    @JsonPropertyDescription("When to try the next flavor.")
    private FlavorFungibility flavorFungibility;

    @JsonPropertyDescription("Admission checks a workload must pass, besides quota, before it is admitted (not applied by Sluice yet).")
    private AdmissionChecksStrategy admissionChecksStrategy;

    public String getCohortName() {
        return cohortName;
    }

    public void setCohortName(String cohortName) {
        this.cohortName = cohortName;
    }

    public FlavorFungibility getFlavorFungibility() {
        return flavorFungibility;
    }

    public void setFlavorFungibility(FlavorFungibility flavorFungibility) {
        this.flavorFungibility = flavorFungibility;
    }

    public AdmissionChecksStrategy getAdmissionChecksStrategy() {
        return admissionChecksStrategy;
    }

    public void setAdmissionChecksStrategy(AdmissionChecksStrategy admissionChecksStrategy) {
        this.admissionChecksStrategy = admissionChecksStrategy;
    }
}
