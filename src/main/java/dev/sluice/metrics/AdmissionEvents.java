package dev.sluice.metrics;

import java.time.Instant;
import java.util.List;

/**
 * What the controller tells the meters, after the corresponding write to the cluster succeeded. Called from the
 * controller's engine thread; implementations must be quick and must not call back into the controller.
 */
public interface AdmissionEvents {

    /** Quota was reserved for a workload that waited {@code waitSeconds} since it was queued (or requeued). */
    void quotaReserved(String clusterQueue, double waitSeconds);

    /** The workload was admitted (Sluice has no admission checks, so right after quota reservation). */
    void admitted(String clusterQueue, double waitSeconds);

    /** An admitted workload was evicted; reason in Kueue's words (Preempted, ClusterQueueStopped, ...), no cause. */
    default void evicted(String clusterQueue, String reason) {
        evicted(clusterQueue, reason, "");
    }

    /**
     * An admitted workload was evicted: reason and underlying cause as Kueue v0.19 labels them (PodsReadyTimeout with
     * WaitForStart or WaitForRecovery, Deactivated with RequeuingLimitExceeded or "", Preempted with "", ...).
     */
    void evicted(String clusterQueue, String reason, String underlyingCause);

    /** A workload was preempted for one of {@code preemptingClusterQueue}; reason InClusterQueue, InCohortReclamation, ... */
    void preempted(String preemptingClusterQueue, String reason);

    /** One admission attempt of a cycle: success (something admitted) or inadmissible, and how long it took. */
    void admissionAttempt(boolean success, double seconds);

    /** The state of every ClusterQueue after a cycle; replaces the previous snapshot (queues absent are gone). */
    void queuesChanged(List<ClusterQueueMetrics> snapshot);

    /**
     * The workload's pods became ready for the first time since its admission (PodsReady True, reason Started):
     * {@code sinceAdmittedSeconds} after its admission, {@code sinceQueuedSeconds} after it was created or requeued.
     */
    void podsReady(String clusterQueue, double sinceAdmittedSeconds, double sinceQueuedSeconds);

    /**
     * A workload whose pods were ready was evicted {@code sinceReadySeconds} after they became ready; reason and
     * underlying cause in Kueue's words (PodsReadyTimeout, Preempted, Deactivated with RequeuingLimitExceeded, ...).
     */
    void evictedAfterReady(String clusterQueue, String reason, String underlyingCause, double sinceReadySeconds);

    /** The workload's pods are all ready now (PodsReady True); the availability meters count it as up from here. */
    void workloadReady(String namespace, String name, Instant at);

    /** The workload's pods are no longer all ready (PodsReady False after True). */
    void workloadNotReady(String namespace, String name, Instant at);

    /** The workload's job started running (admitted and unsuspended). */
    void workloadStarted(String namespace, String name, Instant at);

    /** The workload's job stopped before finishing (evicted or preempted). */
    void workloadInterrupted(String namespace, String name, Instant at);

    /** The workload's job failed (before {@link #workloadFinished}): its last up period ends in failure. */
    void workloadFailed(String namespace, String name, Instant at);

    /** The workload finished (succeeded or failed) or was deleted; its series can be dropped. */
    void workloadFinished(String namespace, String name, Instant at);

    /**
     * A write to the API server failed with HTTP {@code code} (0: no answer): {@code resource} as in the REST path
     * ({@code workloads/status}, {@code jobs}), {@code verb} as RBAC names it ({@code patch}, {@code create}).
     */
    void writeFailed(String resource, String verb, int code);

    /** {@code n} Events were not written: the backlog waiting for the event rate was full (client-go drops them too). */
    default void eventsDropped(long n) {
    }

    /**
     * Fair sharing is on: every ClusterQueue's weighted share (NaN for a zero weight that borrows); replaces the
     * previous map (queues absent are gone). Not called while fair sharing is off, as Kueue reports no shares then.
     */
    default void clusterQueueSharesChanged(java.util.Map<String, Double> shares) {
    }

    /** As {@link #clusterQueueSharesChanged}, for every Cohort object. */
    default void cohortSharesChanged(java.util.Map<String, Double> shares) {
    }

    /**
     * Admission fair sharing is on: every sampled LocalQueue's usage (Kueue's
     * kueue_local_queue_admission_fair_sharing_usage); replaces the previous list (LocalQueues absent are gone). Not
     * called while admission fair sharing is off. Default: ignored.
     */
    default void localQueueAdmissionFairSharingUsageChanged(List<LocalQueueFairSharingUsage> usages) {
    }

    /** A LocalQueue's admission fair sharing usage: resource-weighted consumed plus penalties, over its weight. */
    record LocalQueueFairSharingUsage(String namespace, String name, String clusterQueue, double usage) {
    }

    /** One ClusterQueue's counts and quotas, as Kueue's gauges report them. */
    record ClusterQueueMetrics(String name, String cohort, boolean active, int pendingActive, int pendingInadmissible,
            int reservingWorkloads, int admittedWorkloads, List<ResourceMetrics> resources) {
    }

    /** Quota and use of one resource in one flavor; amounts in milli-units (borrowing/lending limit null = none). */
    record ResourceMetrics(String flavor, String resource, long nominalMilli, Long borrowingLimitMilli,
            Long lendingLimitMilli, long reservedMilli, long usedMilli) {
    }

    /**
     * A workload of LocalQueue {@code namespace/localQueue} got its quota reservation and admission (together: no
     * admission checks), {@code waitSeconds} after it was queued; Kueue's LocalQueue counters and histograms.
     */
    default void localQueueAdmitted(String namespace, String localQueue, double waitSeconds) {
    }

    /**
     * A workload of LocalQueue {@code namespace/localQueue} got its quota reservation and waits for admission checks;
     * its admission follows with {@link #localQueueAdmittedAfterChecks}. Default: ignored.
     */
    default void localQueueQuotaReserved(String namespace, String localQueue, double waitSeconds) {
    }

    /**
     * The admission checks of a workload of that LocalQueue are all Ready: admitted {@code waitSeconds} after it was
     * queued, {@code checksWaitSeconds} after its quota reservation (Kueue's local_queue_admission_checks_wait_time).
     */
    default void localQueueAdmittedAfterChecks(String namespace, String localQueue, double waitSeconds,
            double checksWaitSeconds) {
    }

    /**
     * A workload of {@code clusterQueue} waited {@code seconds} from its quota reservation until every admission check
     * was Ready (Kueue's admission_checks_wait_time_seconds). Default: ignored.
     */
    default void admissionChecksWaited(String clusterQueue, double seconds) {
    }

    /**
     * The state of every LocalQueue (Kueue's LocalQueueMetrics gauges); replaces the previous snapshot. Default:
     * ignored, for meters without LocalQueue series.
     */
    default void localQueuesChanged(List<LocalQueueMetrics> snapshot) {
    }

    /**
     * Workloads not admitted, counted by ClusterQueue, LocalQueue and reasons (Kueue v0.19's
     * kueue_unadmitted_workloads and kueue_local_queue_unadmitted_workloads, KEP 10852); replaces the previous
     * snapshot. Default: ignored.
     */
    default void unadmittedChanged(List<UnadmittedMetrics> snapshot) {
    }

    /** The state of every cohort (Kueue's cohort subtree gauges); replaces the previous snapshot. Default: ignored. */
    default void cohortsChanged(List<CohortMetrics> snapshot) {
    }

    /**
     * One LocalQueue's counts and use, as Kueue's LocalQueue gauges report them; active is the status of its Active
     * condition ("True", "False" or "Unknown").
     */
    record LocalQueueMetrics(String namespace, String name, String active, int pendingActive, int pendingInadmissible,
            int reservingWorkloads, int admittedWorkloads, List<LocalResourceMetrics> resources) {
    }

    /**
     * How many workloads of one LocalQueue (in one ClusterQueue) are not admitted for one pair of reasons: reason is
     * the Admitted=False reason (NoReservation), underlyingCause the QuotaReserved=False reason (e.g. WaitingForQuota).
     */
    record UnadmittedMetrics(String clusterQueue, String namespace, String localQueue, String reason,
            String underlyingCause, int count) {
    }

    /** Reservation and use of one resource in one flavor by a LocalQueue's workloads, in milli-units. */
    record LocalResourceMetrics(String flavor, String resource, long reservedMilli, long usedMilli) {
    }

    /** One cohort: admitted workloads of its subtree, and per flavor and resource its subtree quota and reservations. */
    record CohortMetrics(String name, int admittedActiveWorkloads, List<CohortResourceMetrics> resources) {
    }

    /** Subtree nominal quota and reservations of one resource in one flavor, in milli-units. */
    record CohortResourceMetrics(String flavor, String resource, long subtreeQuotaMilli, long reservedMilli) {
    }
}
