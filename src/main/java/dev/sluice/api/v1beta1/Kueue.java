package dev.sluice.api.v1beta1;

/** Names of Kueue's API group and the well-known condition types and reasons Sluice writes. */
public final class Kueue {

    public static final String GROUP = "kueue.x-k8s.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** What the API server tells a client that uses v1beta1 (Kueue's words). */
    public static final String DEPRECATION_WARNING = "This version is deprecated. Use v1beta2 instead.";

    public static final String PRIORITY_SOURCE_WORKLOAD_PRIORITY_CLASS = "kueue.x-k8s.io/workloadpriorityclass";
    public static final String PRIORITY_SOURCE_POD_PRIORITY_CLASS = "scheduling.k8s.io/priorityclass";

    private Kueue() {
    }
}
