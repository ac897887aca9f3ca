package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * What a pod set asks of the topology, built from its pod template's annotations (required, preferred or
 * unconstrained; slices; a pod-set group) and what its kind says about pod indexes, as Kueue builds it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetTopologyRequest {

    @JsonPropertyDescription("Level all pods must share (kueue.x-k8s.io/podset-required-topology).")
    @Size(max = 63)
    private String required;

    @JsonPropertyDescription("Level the pods should share, else the next level up (kueue.x-k8s.io/podset-preferred-topology).")
    @Size(max = 63)
    private String preferred;

    @JsonPropertyDescription("Anywhere there is room (kueue.x-k8s.io/podset-unconstrained-topology).")
    private Boolean unconstrained;

    @JsonPropertyDescription("Label indexing the pods, e.g. batch.kubernetes.io/job-completion-index.")
    @Size(max = 317)
    private String podIndexLabel;

    @JsonPropertyDescription("Label indexing the replicated jobs (groups) of the pod set, e.g. jobset.sigs.k8s.io/job-index.")
    @Size(max = 317)
    private String subGroupIndexLabel;

    @JsonPropertyDescription("Number of replicated jobs (groups) of the pod set.")
    private Integer subGroupCount;

    @JsonPropertyDescription("Group of pod sets placed together (kueue.x-k8s.io/podset-group-name).")
    @Size(max = 256)
    private String podSetGroupName;

    @JsonPropertyDescription("Level each slice of the pod set must share (kueue.x-k8s.io/podset-slice-required-topology).")
    @Size(max = 63)
    private String podSetSliceRequiredTopology;

    @JsonPropertyDescription("Pods per slice (kueue.x-k8s.io/podset-slice-size).")
    private Integer podSetSliceSize;

    @JsonPropertyDescription("Slice levels and sizes, coarsest first, at most 3"
            + " (kueue.x-k8s.io/podset-slice-required-topology-constraints); not in v1beta1.")
    @Size(max = 3)
    private List<PodsetSliceRequiredTopologyConstraint> podsetSliceRequiredTopologyConstraints;

    public String getRequired() {
        return required;
    }

    public void setRequired(String required) {
        this.required = required;
    }

    public String getPreferred() {
        return preferred;
    }

    public void setPreferred(String preferred) {
        this.preferred = preferred;
    }

    public Boolean getUnconstrained() {
        return unconstrained;
    }

    public void setUnconstrained(Boolean unconstrained) {
        this.unconstrained = unconstrained;
    }

    public String getPodIndexLabel() {
        return podIndexLabel;
    }

    public void setPodIndexLabel(String podIndexLabel) {
        this.podIndexLabel = podIndexLabel;
    }

    public String getSubGroupIndexLabel() {
        return subGroupIndexLabel;
    }

    public void setSubGroupIndexLabel(String subGroupIndexLabel) {
        this.subGroupIndexLabel = subGroupIndexLabel;
    }

    public Integer getSubGroupCount() {
        return subGroupCount;
    }

    public void setSubGroupCount(Integer subGroupCount) {
        this.subGroupCount = subGroupCount;
    }

    public String getPodSetGroupName() {
        return podSetGroupName;
    }

    public void setPodSetGroupName(String podSetGroupName) {
        this.podSetGroupName = podSetGroupName;
    }

    public String getPodSetSliceRequiredTopology() {
        return podSetSliceRequiredTopology;
    }

    public void setPodSetSliceRequiredTopology(String podSetSliceRequiredTopology) {
        this.podSetSliceRequiredTopology = podSetSliceRequiredTopology;
    }

    public Integer getPodSetSliceSize() {
        return podSetSliceSize;
    }

    public void setPodSetSliceSize(Integer podSetSliceSize) {
        this.podSetSliceSize = podSetSliceSize;
    }

    public List<PodsetSliceRequiredTopologyConstraint> getPodsetSliceRequiredTopologyConstraints() {
        return podsetSliceRequiredTopologyConstraints;
    }

    public void setPodsetSliceRequiredTopologyConstraints(List<PodsetSliceRequiredTopologyConstraint> constraints) {
        this.podsetSliceRequiredTopologyConstraints = constraints;
    }
}
