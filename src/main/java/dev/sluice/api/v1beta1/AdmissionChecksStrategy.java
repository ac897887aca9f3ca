package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** The admission checks of a v1beta1 ClusterQueue, each for all its flavors or some (no limits in v1beta1). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionChecksStrategy {

    @JsonPropertyDescription("The checks, by name.")
    private List<AdmissionCheckStrategyRule> admissionChecks;

    public List<AdmissionCheckStrategyRule> getAdmissionChecks() {
        return admissionChecks;
    }

    public void setAdmissionChecks(List<AdmissionCheckStrategyRule> admissionChecks) {
        this.admissionChecks = admissionChecks;
    }
}
