package dev.sluice.controller.cache;

/**
 * What changed, by identity only: the engine loop reads the object's current state from the caches when it handles
 * the reference (level-triggered), so many events for one object collapse into one reconcile.
 *
 * @param type {@link #FLAVOR}, {@link #CLUSTER_QUEUE}, ... or a job kind's key ({@code Kind.group})
 * @param namespace null for cluster-scoped objects
 */
public record Ref(String type, String namespace, String name) {

    public static final String FLAVOR = "ResourceFlavor";
    public static final String CLUSTER_QUEUE = "ClusterQueue";
    public static final String COHORT = "Cohort";
    public static final String ADMISSION_CHECK = "AdmissionCheck";
    public static final String LOCAL_QUEUE = "LocalQueue";
    public static final String NAMESPACE = "Namespace";
    public static final String WORKLOAD = "Workload";
    /** A PriorityClass or WorkloadPriorityClass changed: jobs still waiting for their class get another try. */
    public static final String PRIORITY = "Priority";
    /** A Topology object (kueue.x-k8s.io) changed. */
    public static final String TOPOLOGY = "Topology";
    /**
     * The node view changed (a Node's labels, capacity, taints or readiness; a pod not placed by TAS came, moved or
     * went): one reference for any number of such changes ({@link NodeView}).
     */
    public static final String NODES = "Nodes";

    @Override
    public String toString() {
        return type + " " + (namespace == null ? name : namespace + "/" + name);
    }
}
