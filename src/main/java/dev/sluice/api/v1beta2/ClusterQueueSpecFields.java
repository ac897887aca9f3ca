package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/**
 * What a ClusterQueue's spec says alike in v1beta1 and v1beta2 (one class for both CRD versions' schema); each
 * version's ClusterQueueSpec adds its cohort field and its flavor fungibility.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ClusterQueueSpecFields {

    @JsonPropertyDescription("Resource groups with their flavors and quotas.")
    @Size(max = 16)
    private List<ResourceGroup> resourceGroups;

    @JsonPropertyDescription("StrictFIFO or BestEffortFIFO (default).")
    @Default("BestEffortFIFO")
    private QueueingStrategy queueingStrategy;

    @JsonPropertyDescription("Namespaces whose workloads may use this ClusterQueue; unset selects none, {} selects all.")
    private LabelSelector namespaceSelector;

    @JsonPropertyDescription("Preemption policy.")
    private ClusterQueuePreemption preemption;

    @JsonPropertyDescription("None (default), Hold (admit nothing new) or HoldAndDrain (also evict admitted workloads).")
    @Default("None")
    private StopPolicy stopPolicy;

    @JsonPropertyDescription("This ClusterQueue's weight when fair sharing is on.")
    private FairSharing fairSharing;

    @JsonPropertyDescription("How this ClusterQueue's LocalQueues share admission (admission fair sharing).")
    private AdmissionScope admissionScope;

    public AdmissionScope getAdmissionScope() {
        return admissionScope;
    }

    public void setAdmissionScope(AdmissionScope admissionScope) {
        this.admissionScope = admissionScope;
    }

    public List<ResourceGroup> getResourceGroups() {
        return resourceGroups;
    }

    public void setResourceGroups(List<ResourceGroup> resourceGroups) {
        this.resourceGroups = resourceGroups;
    }

    public FairSharing getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(FairSharing fairSharing) {
        this.fairSharing = fairSharing;
    }

    public QueueingStrategy getQueueingStrategy() {
        return queueingStrategy;
    }

    public void setQueueingStrategy(QueueingStrategy queueingStrategy) {
        this.queueingStrategy = queueingStrategy;
    }

    public LabelSelector getNamespaceSelector() {
        return namespaceSelector;
    }

    public void setNamespaceSelector(LabelSelector namespaceSelector) {
        this.namespaceSelector = namespaceSelector;
    }

    public ClusterQueuePreemption getPreemption() {
        return preemption;
    }

    public void setPreemption(ClusterQueuePreemption preemption) {
        this.preemption = preemption;
    }

    public StopPolicy getStopPolicy() {
        return stopPolicy;
    }

    public void setStopPolicy(StopPolicy stopPolicy) {
        this.stopPolicy = stopPolicy;
    }

}
