package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;
import java.util.Map;

/** Spec of a ProvisioningRequestConfig: how the ProvisioningRequest admission check asks the cluster autoscaler for capacity. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningRequestConfigSpec {

    @JsonPropertyDescription("The ProvisioningRequest class (of the cluster autoscaler).")
    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
    private String provisioningClassName;

    @JsonPropertyDescription("Parameters of the ProvisioningRequests made.")
    @Size(max = 100)
    private Map<String, String> parameters;

    @JsonPropertyDescription("Resources the ProvisioningRequests ask for; empty means all.")
    @Size(max = 100)
    private List<String> managedResources;

    @JsonPropertyDescription("When and how often a failed ProvisioningRequest is retried.")
    private ProvisioningRequestRetryStrategy retryStrategy;

    @JsonPropertyDescription("What the provisioned capacity adds to the admitted pods.")
    private ProvisioningRequestPodSetUpdates podSetUpdates;

    @JsonPropertyDescription("Whether pod sets are merged into one pod template of the ProvisioningRequest.")
    private PodSetMergePolicy podSetMergePolicy;

    public String getProvisioningClassName() {
        return provisioningClassName;
    }

    public void setProvisioningClassName(String provisioningClassName) {
        this.provisioningClassName = provisioningClassName;
    }

    public Map<String, String> getParameters() {
        return parameters;
    }

    public void setParameters(Map<String, String> parameters) {
        this.parameters = parameters;
    }

    public List<String> getManagedResources() {
        return managedResources;
    }

    public void setManagedResources(List<String> managedResources) {
        this.managedResources = managedResources;
    }

    public ProvisioningRequestRetryStrategy getRetryStrategy() {
        return retryStrategy;
    }

    public void setRetryStrategy(ProvisioningRequestRetryStrategy retryStrategy) {
        this.retryStrategy = retryStrategy;
    }

    public ProvisioningRequestPodSetUpdates getPodSetUpdates() {
        return podSetUpdates;
    }

    public void setPodSetUpdates(ProvisioningRequestPodSetUpdates podSetUpdates) {
        this.podSetUpdates = podSetUpdates;
    }

    public PodSetMergePolicy getPodSetMergePolicy() {
        return podSetMergePolicy;
    }

    public void setPodSetMergePolicy(PodSetMergePolicy podSetMergePolicy) {
        this.podSetMergePolicy = podSetMergePolicy;
    }
}
