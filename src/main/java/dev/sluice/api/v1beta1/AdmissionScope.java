package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A ClusterQueue's admission scope (Kueue's AdmissionScope): how its LocalQueues share admission. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionScope {

    @JsonPropertyDescription("UsageBasedAdmissionFairSharing (LocalQueues with less recent usage go first, when admission"
            + " fair sharing is configured) or NoAdmissionFairSharing.")
    @Required
    private AdmissionMode admissionMode;

    public AdmissionMode getAdmissionMode() {
        return admissionMode;
    }

    public void setAdmissionMode(AdmissionMode admissionMode) {
        this.admissionMode = admissionMode;
    }
}
