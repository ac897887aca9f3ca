package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** The object holding an AdmissionCheck's parameters (for example a ProvisioningRequestConfig). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionCheckParametersReference {

    @JsonPropertyDescription("API group of the referenced object.")
    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
    private String apiGroup;

    @JsonPropertyDescription("Kind of the referenced object.")
    @Required
    @Size(min = 1, max = 63)
    @Pattern("^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$")
    private String kind;

    @JsonPropertyDescription("Name of the referenced object.")
    @Required
    @Size(min = 1, max = 63)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    private String name;

    public String getApiGroup() {
        return apiGroup;
    }

    public void setApiGroup(String apiGroup) {
        this.apiGroup = apiGroup;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
