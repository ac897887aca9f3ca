package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** Spec of an AdmissionCheck: the controller that decides the check, and where its parameters are. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionCheckSpec {

    @JsonPropertyDescription("The controller that processes this check (not necessarily a Pod or Deployment name); immutable.")
    @Required
    @Size(min = 1, max = 253)
    @ValidationRule(value = "self == oldSelf", message = "field is immutable")
    private String controllerName;

    @JsonPropertyDescription("A configuration with additional parameters for the check.")
    private AdmissionCheckParametersReference parameters;

    public String getControllerName() {
        return controllerName;
    }

    public void setControllerName(String controllerName) {
        this.controllerName = controllerName;
    }

    public AdmissionCheckParametersReference getParameters() {
        return parameters;
    }

    public void setParameters(AdmissionCheckParametersReference parameters) {
        this.parameters = parameters;
    }
}
