package dev.sluice.jobs;

/** Label and annotation keys that Sluice reads or writes on jobs, pods and Workloads (see DESIGN, "Labels and annotations"). */
public final class WellKnown {
    private WellKnown() {
    }

    /** Label on any job: the LocalQueue to wait in (opt-in to queueing). */
    public static final String QUEUE_NAME = "kueue.x-k8s.io/queue-name";
    /** Label on any job: the WorkloadPriorityClass to use. */
    public static final String PRIORITY_CLASS = "kueue.x-k8s.io/priority-class";
    /** Label on a Workload: uid of the owning job. */
    public static final String JOB_UID = "kueue.x-k8s.io/job-uid";
    /** Label on the pod templates of a started job: which pod set the pods belong to. */
    public static final String POD_SET = "kueue.x-k8s.io/podset";
    /** Scheduling gate on the pod templates of a pod set placed by topology: the ungater removes it pod by pod. */
    public static final String TOPOLOGY_GATE = "kueue.x-k8s.io/topology";
    /** Annotation on the pod templates of a job started with a topology assignment: its Workload's name. */
    public static final String WORKLOAD = "kueue.x-k8s.io/workload";
    /** Annotation on a pod: subtracted from its index label to give its rank (MPIJob workers, LeaderWorkerSet). */
    public static final String POD_INDEX_OFFSET = "kueue.x-k8s.io/pod-index-offset";
    /**
     * Annotation on a job being stopped: held, its pod templates not yet restored (Kueue's own name, so a job Kueue
     * was stopping is finished by Sluice and the other way round).
     */
    public static final String STOPPING = "kueue.x-k8s.io/stopping";

    /** Annotation on a JobSet, one replicated job's template, or a Job: topology key for exclusive placement. */
    public static final String EXCLUSIVE_TOPOLOGY = "alpha.jobset.sigs.k8s.io/exclusive-topology";
    /** JobSet's flag annotation: exclusivity by pre-labelled nodes; JobSet then injects no affinities, nor do we. */
    public static final String JOBSET_NODE_SELECTOR_STRATEGY = "alpha.jobset.sigs.k8s.io/node-selector";
    /** Pod label set by JobSet: identifies one child Job (unique across namespaces). */
    public static final String JOBSET_JOB_KEY = "jobset.sigs.k8s.io/job-key";
    /** Pod label set by JobSet: the owning JobSet's name. */
    public static final String JOBSET_NAME = "jobset.sigs.k8s.io/jobset-name";
    /** Pod label set by the Job controller: the owning Job's uid (unique across namespaces). */
    public static final String JOB_CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    /** Pod label set by the Job controller: the owning Job's name. */
    public static final String JOB_NAME = "batch.kubernetes.io/job-name";

    /** Annotation ("true") holding TFJob, PyTorchJob, MPIJob and SparkApplication the ack-kube-queue way. */
    public static final String ACK_SUSPEND = "scheduling.x-k8s.io/suspend";
    /** Annotation on an Argo Workflow: a ResourceList (YAML or JSON) the whole workflow needs. */
    public static final String ACK_MIN_RESOURCES = "kube-queue/min-resources";
    /** Name of the suspend template that marks an Argo Workflow as held the ack-kube-queue way. */
    public static final String ACK_SUSPEND_TEMPLATE = "kube-queue-suspend";
    /**
     * Annotation written on an Argo Workflow when it starts: the nodeSelector and tolerations its templates had
     * before the flavor was added to them (JSON by template name), so that eviction puts them back exactly.
     */
    public static final String ARGO_TEMPLATE_SCHEDULING = "sluice.dev/template-scheduling";

    /** Simulator annotation: how long the job runs once admitted (e.g. 60s). */
    public static final String SIMULATED_DURATION = "sluice.dev/simulated-duration";
    /** Simulator annotation: submission offset from the start of the run. */
    public static final String SIMULATED_SUBMIT_AT = "sluice.dev/simulated-submit-at";
    /** Simulator annotation: how long after admission the job's pods are all ready (e.g. 2m), or {@code never}. */
    public static final String SIMULATED_READY_AFTER = "sluice.dev/simulated-ready-after";
    /** Simulator: how long after its pods got ready one of them fails for good (readiness lost, recoveryTimeout). */
    public static final String SIMULATED_READY_LOST_AFTER = "sluice.dev/simulated-ready-lost-after";
    /** Opt-in to queue jobs that carry no queue-name label (its use is defined by the webhook). */
    public static final String QUEUE_BY_DEFAULT = "sluice.dev/queue-by-default";
}
