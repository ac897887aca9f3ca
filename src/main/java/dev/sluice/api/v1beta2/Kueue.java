package dev.sluice.api.v1beta2;

/** Names of Kueue's API group (the hub version, v1beta2) and the priority sources of its v1beta1 spelling. */
public final class Kueue {

    public static final String GROUP = "kueue.x-k8s.io";
    public static final String VERSION = "v1beta2";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    public static final String PRIORITY_SOURCE_WORKLOAD_PRIORITY_CLASS = "kueue.x-k8s.io/workloadpriorityclass";
    public static final String PRIORITY_SOURCE_POD_PRIORITY_CLASS = "scheduling.k8s.io/priorityclass";

    /** priorityClassRef's group and kind for a WorkloadPriorityClass and for a pod PriorityClass. */
    public static final String WORKLOAD_PRIORITY_CLASS_GROUP = GROUP;
    public static final String WORKLOAD_PRIORITY_CLASS_KIND = "WorkloadPriorityClass";
    public static final String POD_PRIORITY_CLASS_GROUP = "scheduling.k8s.io";
    public static final String POD_PRIORITY_CLASS_KIND = "PriorityClass";

    private Kueue() {
    }
}
