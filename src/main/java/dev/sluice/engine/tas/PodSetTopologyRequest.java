package dev.sluice.engine.tas;

import java.util.List;

/**
 * Kueue v1beta2's PodSetTopologyRequest (apis/kueue/v1beta2/workload_types.go). At most one of required / preferred /
 * unconstrained is meant to be set; a request with only slice constraints places the pod set unconstrained with
 * each slice in one domain. podIndexLabel, subGroupIndexLabel and subGroupCount are carried for the pods' ungating
 * (not for the placement, as in Kueue's snapshot).
 */
public record PodSetTopologyRequest(String required, String preferred, Boolean unconstrained, String podIndexLabel,
                                    String subGroupIndexLabel, Integer subGroupCount, String podSetGroupName,
                                    String podSetSliceRequiredTopology, Integer podSetSliceSize,
                                    List<SliceConstraint> podsetSliceRequiredTopologyConstraints) {
    public PodSetTopologyRequest {
        podsetSliceRequiredTopologyConstraints = podsetSliceRequiredTopologyConstraints == null ? List.of()
                : List.copyOf(podsetSliceRequiredTopologyConstraints);
    }

    public static PodSetTopologyRequest ofRequired(String level) {
        return new PodSetTopologyRequest(level, null, null, null, null, null, null, null, null, null);
    }

    public static PodSetTopologyRequest ofPreferred(String level) {
        return new PodSetTopologyRequest(null, level, null, null, null, null, null, null, null, null);
    }

    public static PodSetTopologyRequest ofUnconstrained() {
        return new PodSetTopologyRequest(null, null, true, null, null, null, null, null, null, null);
    }

    /** No level for the pod set, only slices: Kueue's "slice-only" request. */
    public static PodSetTopologyRequest ofSlicesOnly(String sliceLevel, int sliceSize) {
        return new PodSetTopologyRequest(null, null, null, null, null, null, null, sliceLevel, sliceSize, null);
    }

    public PodSetTopologyRequest withSlices(String sliceLevel, Integer sliceSize) {
        return new PodSetTopologyRequest(required, preferred, unconstrained, podIndexLabel, subGroupIndexLabel,
                subGroupCount, podSetGroupName, sliceLevel, sliceSize, podsetSliceRequiredTopologyConstraints);
    }

    public PodSetTopologyRequest withSliceConstraints(List<SliceConstraint> constraints) {
        return new PodSetTopologyRequest(required, preferred, unconstrained, podIndexLabel, subGroupIndexLabel,
                subGroupCount, podSetGroupName, podSetSliceRequiredTopology, podSetSliceSize, constraints);
    }

    public PodSetTopologyRequest withGroup(String groupName) {
        return new PodSetTopologyRequest(required, preferred, unconstrained, podIndexLabel, subGroupIndexLabel,
                subGroupCount, groupName, podSetSliceRequiredTopology, podSetSliceSize,
                podsetSliceRequiredTopologyConstraints);
    }

    /**
     * Kueue's utiltas.PodSetSliceRequiredTopologyConstraints: the multi-layer list if given, else the single layer of
     * podSetSliceRequiredTopology / podSetSliceSize (size 0 when missing), else none.
     */
    public List<SliceConstraint> sliceConstraints() {
        if (!podsetSliceRequiredTopologyConstraints.isEmpty()) {
            return podsetSliceRequiredTopologyConstraints;
        }
        if (podSetSliceRequiredTopology == null) {
            return List.of();
        }
        return List.of(new SliceConstraint(podSetSliceRequiredTopology, podSetSliceSize == null ? 0 : podSetSliceSize));
    }

    boolean isRequired() {
        return required != null;
    }

    boolean isSliceTopologyOnly() {
        return required == null && preferred == null && !sliceConstraints().isEmpty();
    }
}
