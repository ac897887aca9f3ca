package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.ClusterQueueSpecFields;
import java.util.List;

/** Spec of a ClusterQueue: quota per flavor and resource, cohort, queueing and preemption policy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterQueueSpec extends ClusterQueueSpecFields {

    @JsonPropertyDescription("Cohort whose ClusterQueues borrow unused quota from each other.")
    private String cohort;

    @JsonPropertyDescription("When to try the next flavor.")
    private FlavorFungibility flavorFungibility;

    @JsonPropertyDescription("Names of the admission checks for all flavors (not applied by Sluice yet); v1beta2 has only admissionChecksStrategy.")
    private List<String> admissionChecks;

    @JsonPropertyDescription("Admission checks a workload must pass, besides quota, before it is admitted (not applied by Sluice yet).")
    private AdmissionChecksStrategy admissionChecksStrategy;

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

    public List<String> getAdmissionChecks() {
        return admissionChecks;
    }

    public void setAdmissionChecks(List<String> admissionChecks) {
        this.admissionChecks = admissionChecks;
    }

    public AdmissionChecksStrategy getAdmissionChecksStrategy() {
        return admissionChecksStrategy;
    }

    public void setAdmissionChecksStrategy(AdmissionChecksStrategy admissionChecksStrategy) {
        this.admissionChecksStrategy = admissionChecksStrategy;
    }
}
