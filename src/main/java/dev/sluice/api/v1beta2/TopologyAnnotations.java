package dev.sluice.api.v1beta2;

/** Kueue's pod template annotations that ask for topology-aware scheduling (its topology_types.go). */
public final class TopologyAnnotations {

    public static final String REQUIRED = "kueue.x-k8s.io/podset-required-topology";
    public static final String PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";
    public static final String UNCONSTRAINED = "kueue.x-k8s.io/podset-unconstrained-topology";
    public static final String SLICE_REQUIRED = "kueue.x-k8s.io/podset-slice-required-topology";
    public static final String SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size";
    public static final String SLICE_REQUIRED_CONSTRAINTS = "kueue.x-k8s.io/podset-slice-required-topology-constraints";
    public static final String GROUP_NAME = "kueue.x-k8s.io/podset-group-name";

    private TopologyAnnotations() {
    }
}
