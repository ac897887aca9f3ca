package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Updates to the admitted pods from the ProvisioningRequest's details. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningRequestPodSetUpdates {

    @JsonPropertyDescription("Node selectors set from the provisioning class details.")
    @Size(max = 8)
    private List<ProvisioningRequestPodSetUpdatesNodeSelector> nodeSelector;

    public List<ProvisioningRequestPodSetUpdatesNodeSelector> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(List<ProvisioningRequestPodSetUpdatesNodeSelector> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }
}
