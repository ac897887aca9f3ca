package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.AdmissionCheckParametersReference;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** Spec of a v1beta1 AdmissionCheck: v1beta2's fields and retryDelayMinutes, which v1beta2 dropped. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionCheckSpec {

    @JsonPropertyDescription("The controller that processes this check (not necessarily a Pod or Deployment name); immutable.")
    @Required
    @ValidationRule(value = "self == oldSelf", message = "field is immutable")
    private String controllerName;

    @JsonPropertyDescription("Minutes to wait before a check in Retry is retried (deprecated: v1beta2 has no such field).")
    @Default("15")
    private Long retryDelayMinutes;

    @JsonPropertyDescription("A configuration with additional parameters for the check.")
    private AdmissionCheckParametersReference parameters;

    public String getControllerName() {
        return controllerName;
    }

    public void setControllerName(String controllerName) {
        this.controllerName = controllerName;
    }

    public Long getRetryDelayMinutes() {
        return retryDelayMinutes;
    }

    public void setRetryDelayMinutes(Long retryDelayMinutes) {
        this.retryDelayMinutes = retryDelayMinutes;
    }

    public AdmissionCheckParametersReference getParameters() {
        return parameters;
    }

    public void setParameters(AdmissionCheckParametersReference parameters) {
        this.parameters = parameters;
    }
}
