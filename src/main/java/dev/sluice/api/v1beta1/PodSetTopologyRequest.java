package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * v1beta1's schema of a pod set's topology request (the Workload CRD's v1beta1 version swaps it in): v1beta2's
 * fields without their length limits and without podsetSliceRequiredTopologyConstraints. Objects are read into
 * v1beta2's class, which holds every field of this one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetTopologyRequest {

    @JsonPropertyDescription("Level all pods must share (kueue.x-k8s.io/podset-required-topology).")
    public String required;

    @JsonPropertyDescription("Level the pods should share, else the next level up (kueue.x-k8s.io/podset-preferred-topology).")
    public String preferred;

    @JsonPropertyDescription("Anywhere there is room (kueue.x-k8s.io/podset-unconstrained-topology).")
    public Boolean unconstrained;

    @JsonPropertyDescription("Label indexing the pods, e.g. batch.kubernetes.io/job-completion-index.")
    public String podIndexLabel;

    @JsonPropertyDescription("Label indexing the replicated jobs (groups) of the pod set, e.g. jobset.sigs.k8s.io/job-index.")
    public String subGroupIndexLabel;

    @JsonPropertyDescription("Number of replicated jobs (groups) of the pod set.")
    public Integer subGroupCount;

    @JsonPropertyDescription("Group of pod sets placed together (kueue.x-k8s.io/podset-group-name).")
    public String podSetGroupName;

    @JsonPropertyDescription("Level each slice of the pod set must share (kueue.x-k8s.io/podset-slice-required-topology).")
    public String podSetSliceRequiredTopology;

    @JsonPropertyDescription("Pods per slice (kueue.x-k8s.io/podset-slice-size).")
    public Integer podSetSliceSize;
}
