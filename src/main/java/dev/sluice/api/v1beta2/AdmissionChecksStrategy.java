package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** The admission checks of a ClusterQueue, each for all its flavors or some. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionChecksStrategy {

    @JsonPropertyDescription("The checks, by name.")
    @Required
    @Size(min = 1, max = 64)
    private List<AdmissionCheckStrategyRule> admissionChecks;

    public List<AdmissionCheckStrategyRule> getAdmissionChecks() {
        return admissionChecks;
    }

    public void setAdmissionChecks(List<AdmissionCheckStrategyRule> admissionChecks) {
        this.admissionChecks = admissionChecks;
    }
}
