package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A node selector label whose value comes from the ProvisioningRequest's class details. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningRequestPodSetUpdatesNodeSelector {

    @JsonPropertyDescription("The node selector key.")
    @Required
    @Size(min = 1, max = 317)
    @Pattern("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$")
    private String key;

    @JsonPropertyDescription("The provisioning class detail the value is read from.")
    @Required
    @Size(min = 1, max = 32768)
    private String valueFromProvisioningClassDetail;

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public String getValueFromProvisioningClassDetail() {
        return valueFromProvisioningClassDetail;
    }

    public void setValueFromProvisioningClassDetail(String valueFromProvisioningClassDetail) {
        this.valueFromProvisioningClassDetail = valueFromProvisioningClassDetail;
    }
}
