package dev.sluice.metrics;

/**
 * Kueue's metric names (exactly as Kueue exposes them, suffixes included), their help texts and histogram buckets.
 * Micrometer's Prometheus naming keeps a name that already ends in {@code _total} (counters) or in {@code _seconds}
 * (summaries with base unit seconds) unchanged, so these are the names scraped.
 */
final class KueueMeters {

    private KueueMeters() {
    }

    static final String CLUSTER_QUEUE = "cluster_queue";
    static final String PREEMPTING_CLUSTER_QUEUE = "preempting_cluster_queue";
    static final String STATUS = "status";
    static final String REASON = "reason";
    static final String RESULT = "result";
    static final String COHORT = "cohort";
    static final String FLAVOR = "flavor";
    static final String RESOURCE = "resource";

    // Scheduler
    static final Metric ADMISSION_ATTEMPTS_TOTAL = new Metric("kueue_admission_attempts_total",
            "The total number of attempts to admit workloads; result 'success' means that at least one workload was "
            + "admitted, 'inadmissible' that none was.");
    static final Metric ADMISSION_ATTEMPT_DURATION = new Metric("kueue_admission_attempt_duration_seconds",
            "The latency of an admission attempt, by result ('success': at least one workload admitted, "
            + "'inadmissible': none).");

    // Queue system
    static final Metric PENDING_WORKLOADS = new Metric("kueue_pending_workloads",
            "The number of pending workloads, per 'cluster_queue' and 'status' ('active': in the admission queue; "
            + "'inadmissible': a failed admission attempt, not retried until cluster conditions that could make it "
            + "admissible change).");
    static final Metric QUOTA_RESERVED_WORKLOADS_TOTAL = new Metric("kueue_quota_reserved_workloads_total",
            "The total number of quota reserved workloads per 'cluster_queue'");
    static final Metric QUOTA_RESERVED_WAIT_TIME = new Metric("kueue_quota_reserved_wait_time_seconds",
            "The time between a workload was created or requeued until it got quota reservation, per 'cluster_queue'");
    /** Sluice's own: writes the API server refused or did not answer (never swallowed; see WriteFailures). */
    static final Metric WRITE_FAILURES_TOTAL = new Metric("sluice_api_write_failures_total",
            "The total number of failed writes to the API server per 'resource', 'verb' and HTTP status 'code' (0: "
            + "no answer); conflicts (409) are not failures");
    static final Metric EVENTS_DROPPED_TOTAL = new Metric("sluice_events_dropped_total",
            "The total number of Events not written because the backlog waiting for sluice.events.qps was full (the "
            + "conditions they repeat are written)");
    static final Metric ADMITTED_WORKLOADS_TOTAL = new Metric("kueue_admitted_workloads_total",
            "The total number of admitted workloads per 'cluster_queue'");
    static final Metric ADMISSION_WAIT_TIME = new Metric("kueue_admission_wait_time_seconds",
            "The time between a workload was created or requeued until admission, per 'cluster_queue'");
    static final Metric EVICTED_WORKLOADS_TOTAL = new Metric("kueue_evicted_workloads_total",
            "The number of evicted workloads per 'cluster_queue', 'reason' (Preempted, PodsReadyTimeout, "
            + "AdmissionCheck, ClusterQueueStopped, Deactivated) and 'underlying_cause' (WaitForStart or "
            + "WaitForRecovery for PodsReadyTimeout, RequeuingLimitExceeded for Deactivated).");
    static final Metric PREEMPTED_WORKLOADS_TOTAL = new Metric("kueue_preempted_workloads_total",
            "The number of preempted workloads per 'preempting_cluster_queue' and 'reason' (InClusterQueue, "
            + "InCohortReclamation, InCohortFairSharing, InCohortReclaimWhileBorrowing).");

    // Cache
    static final Metric RESERVING_ACTIVE_WORKLOADS = new Metric("kueue_reserving_active_workloads",
            "The number of Workloads that are reserving quota, per 'cluster_queue'");
    static final Metric ADMITTED_ACTIVE_WORKLOADS = new Metric("kueue_admitted_active_workloads",
            "The number of admitted Workloads that are active (unsuspended and not finished), per 'cluster_queue'");
    static final Metric CLUSTER_QUEUE_STATUS = new Metric("kueue_cluster_queue_status",
            "Reports 'cluster_queue' with its 'status' (pending, active or terminating); 1 for the current status, 0 "
            + "for the others.");

    // ClusterQueue resources
    static final Metric RESOURCE_RESERVATION = new Metric("kueue_cluster_queue_resource_reservation",
            "Reports the cluster_queue's total resource reservation within all the flavors");
    static final Metric CLUSTER_QUEUE_WEIGHTED_SHARE = new Metric("kueue_cluster_queue_weighted_share",
            "Reports a value that representing the maximum of the ratios of usage above nominal quota to the "
            + "lendable resources in the cohort, among all the resources provided by the ClusterQueue, and divided "
            + "by the weight. If zero, it means that the usage of the ClusterQueue is below the nominal quota. If "
            + "the ClusterQueue has a weight of zero and is borrowing, this will return NaN.");
    static final Metric COHORT_WEIGHTED_SHARE = new Metric("kueue_cohort_weighted_share",
            "Reports a value that representing the maximum of the ratios of usage above nominal quota to the "
            + "lendable resources in the Cohort, among all the resources provided by the Cohort, and divided by the "
            + "weight. If zero, it means that the usage of the Cohort is below the nominal quota. If the Cohort has "
            + "a weight of zero and is borrowing, this will return NaN.");
    static final Metric LOCAL_QUEUE_AFS_USAGE = new Metric("kueue_local_queue_admission_fair_sharing_usage",
            "Reports a value representing the LocalQueue's Admission Fair Sharing usage, calculated from the "
            + "resource-weighted sum of consumed resources and pending admission penalties, divided by the "
            + "LocalQueue's fair sharing weight");
    static final Metric RESOURCE_USAGE = new Metric("kueue_cluster_queue_resource_usage",
            "Reports the cluster_queue's total resource usage within all the flavors");
    static final Metric NOMINAL_QUOTA = new Metric("kueue_cluster_queue_nominal_quota",
            "Reports the cluster_queue's resource nominal quota within all the flavors");
    static final Metric BORROWING_LIMIT = new Metric("kueue_cluster_queue_borrowing_limit",
            "Reports the cluster_queue's resource borrowing limit within all the flavors (+Inf when unlimited)");
    static final Metric LENDING_LIMIT = new Metric("kueue_cluster_queue_lending_limit",
            "Reports the cluster_queue's resource lending limit within all the flavors (+Inf when unlimited)");

    /** Kueue's wait-time buckets: 1, then 2.5 doubling 13 times (2.5 ... 10240 seconds). */
    // waitForPodsReady
    static final String UNDERLYING_CAUSE = "underlying_cause";
    static final Metric READY_WAIT_TIME = new Metric("kueue_ready_wait_time_seconds",
            "The time between a workload was created or requeued until ready, per 'cluster_queue'");
    static final Metric ADMITTED_UNTIL_READY_WAIT_TIME = new Metric("kueue_admitted_until_ready_wait_time_seconds",
            "The time between a workload was admitted until ready, per 'cluster_queue'");
    static final Metric PODS_READY_TO_EVICTED_TIME = new Metric("kueue_pods_ready_to_evicted_time_seconds",
            "The number of seconds between a workload's pods being ready and eviction workloads per 'cluster_queue', "
            + "'reason' (Preempted, PodsReadyTimeout, ClusterQueueStopped, LocalQueueStopped, Deactivated, ...) and "
            + "'underlying_cause' (empty, or RequeuingLimitExceeded for a deactivation)");

    static final double[] WAIT_TIME_BUCKETS = exponentialFrom1(14);

    /** Prometheus's default buckets, which Kueue keeps for the admission attempt latency. */
    static final double[] DEFAULT_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    /** 1, then 2.5, 5, 10, ... ({@code count} buckets in all), as Kueue generates its wait-time buckets. */
    static double[] exponentialFrom1(int count) {
        double[] buckets = new double[count];
        buckets[0] = 1;
        double next = 2.5;
        for (int i = 1; i < count; i++) {
            buckets[i] = next;
            next *= 2;
        }
        return buckets;
    }
}
