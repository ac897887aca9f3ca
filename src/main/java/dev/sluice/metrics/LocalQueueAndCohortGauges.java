package dev.sluice.metrics;

import dev.sluice.metrics.AdmissionEvents.CohortMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortResourceMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalResourceMetrics;
import dev.sluice.metrics.SnapshotGauges.Series;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's LocalQueue gauges ({@code kueue_local_queue_*}, behind Kueue's LocalQueueMetrics gate; labels name and
 * namespace), cohort subtree gauges ({@code kueue_cohort_subtree_*}) and unadmitted workload gauges, each fed by
 * whole snapshots ({@link SnapshotGauges}): a series goes with its queue or cohort, as Kueue deletes such series.
 */
final class LocalQueueAndCohortGauges {

    static final Metric LQ_PENDING = new Metric("kueue_local_queue_pending_workloads",
            "The number of pending workloads, per 'local_queue' and 'status' (active: in the admission queue; "
            + "inadmissible: a failed admission attempt, not retried until cluster conditions change)");
    static final Metric LQ_RESERVING = new Metric("kueue_local_queue_reserving_active_workloads",
            "The number of Workloads that are reserving quota, per 'localQueue'");
    static final Metric LQ_ADMITTED = new Metric("kueue_local_queue_admitted_active_workloads",
            "The number of admitted Workloads that are active, per 'localQueue'");
    static final Metric LQ_STATUS = new Metric("kueue_local_queue_status",
            "Reports 'localQueue' with its 'active' status (with possible values 'True', 'False', or 'Unknown'); "
            + "only one of them is 1");
    static final Metric LQ_RESERVATION = new Metric("kueue_local_queue_resource_reservation",
            "Reports the localQueue's total resource reservation within all the flavors");
    static final Metric LQ_USAGE = new Metric("kueue_local_queue_resource_usage",
            "Reports the localQueue's total resource usage within all the flavors");
    static final Metric COHORT_QUOTA = new Metric("kueue_cohort_subtree_quota",
            "Reports the cohort's nominal quota aggregated within the cohort's subtree, per resource and flavor");
    static final Metric COHORT_RESERVATIONS = new Metric("kueue_cohort_subtree_resource_reservations",
            "Reports the cohort's resource reservations aggregated within the cohort's subtree, per resource and "
            + "flavor");
    static final Metric COHORT_ADMITTED = new Metric("kueue_cohort_subtree_admitted_active_workloads",
            "The number of admitted Workloads that are active, per cohort's subtree");

    static final Metric UNADMITTED = new Metric("kueue_unadmitted_workloads",
            "The number of workloads not admitted, per 'cluster_queue', 'reason' (of the Admitted condition) and "
            + "'underlying_cause' (the reason of the QuotaReserved condition)");
    static final Metric LQ_UNADMITTED = new Metric("kueue_local_queue_unadmitted_workloads",
            "The number of workloads not admitted, per 'localQueue', 'reason' (of the Admitted condition) and "
            + "'underlying_cause' (the reason of the QuotaReserved condition)");

    private static final List<String> CONDITION_STATUSES = List.of("True", "False", "Unknown");

    private final SnapshotGauges localQueues;
    private final SnapshotGauges cohorts;
    private final SnapshotGauges unadmitted;

    LocalQueueAndCohortGauges(MeterRegistry registry) {
        this.localQueues = new SnapshotGauges(registry);
        this.cohorts = new SnapshotGauges(registry);
        this.unadmitted = new SnapshotGauges(registry);
    }

    synchronized void localQueues(List<LocalQueueMetrics> snapshot) {
        Map<Series, Double> next = new LinkedHashMap<>();
        for (LocalQueueMetrics lq : snapshot) {
            if (lq.name() == null || lq.namespace() == null) {
                throw new IllegalArgumentException("LocalQueue metrics need a name and a namespace, got " + lq);
            }
            Tags queue = Tags.of("name", lq.name()).and("namespace", lq.namespace());
            next.put(new Series(LQ_PENDING, queue.and("status", "active")), (double) lq.pendingActive());
            next.put(new Series(LQ_PENDING, queue.and("status", "inadmissible")),
                    (double) lq.pendingInadmissible());
            next.put(new Series(LQ_RESERVING, queue), (double) lq.reservingWorkloads());
            next.put(new Series(LQ_ADMITTED, queue), (double) lq.admittedWorkloads());
            for (String status : CONDITION_STATUSES) {
                next.put(new Series(LQ_STATUS, queue.and("active", status)),
                        status.equals(lq.active()) ? 1.0 : 0.0);
            }
            for (LocalResourceMetrics r : lq.resources()) {
                Tags tags = queue.and("flavor", r.flavor()).and("resource", r.resource());
                next.put(new Series(LQ_RESERVATION, tags), r.reservedMilli() / 1000.0);
                next.put(new Series(LQ_USAGE, tags), r.usedMilli() / 1000.0);
            }
        }
        localQueues.publish(next);
    }

    synchronized void cohorts(List<CohortMetrics> snapshot) {
        Map<Series, Double> next = new LinkedHashMap<>();
        for (CohortMetrics c : snapshot) {
            if (c.name() == null || c.name().isEmpty()) {
                throw new IllegalArgumentException("cohort metrics need a name, got " + c);
            }
            Tags cohort = Tags.of("cohort", c.name());
            next.put(new Series(COHORT_ADMITTED, cohort), (double) c.admittedActiveWorkloads());
            for (CohortResourceMetrics r : c.resources()) {
                Tags tags = cohort.and("flavor", r.flavor()).and("resource", r.resource());
                // Kueue deletes a subtree series whose value is not above 0 (applyCohortMetricPoint)
                if (r.subtreeQuotaMilli() > 0) {
                    next.put(new Series(COHORT_QUOTA, tags), r.subtreeQuotaMilli() / 1000.0);
                }
                if (r.reservedMilli() > 0) {
                    next.put(new Series(COHORT_RESERVATIONS, tags), r.reservedMilli() / 1000.0);
                }
            }
        }
        cohorts.publish(next);
    }

    /** Summed per ClusterQueue and per LocalQueue; a pair of reasons no workload has any more loses its series. */
    synchronized void unadmitted(List<AdmissionEvents.UnadmittedMetrics> snapshot) {
        Map<Series, Double> next = new LinkedHashMap<>();
        for (AdmissionEvents.UnadmittedMetrics u : snapshot) {
            if (u.clusterQueue() == null || u.namespace() == null || u.localQueue() == null || u.reason() == null
                    || u.underlyingCause() == null) {
                throw new IllegalArgumentException("unadmitted workload metrics need a ClusterQueue, a LocalQueue "
                        + "and both reasons, got " + u);
            }
            Tags reasons = Tags.of("reason", u.reason()).and("underlying_cause", u.underlyingCause());
            next.merge(new Series(UNADMITTED, reasons.and("cluster_queue", u.clusterQueue())),
                    (double) u.count(), Double::sum);
            // KEP 10852 gives the LocalQueue series its ClusterQueue too
            Tags queue = Tags.of("name", u.localQueue()).and("namespace", u.namespace())
                    .and("cluster_queue", u.clusterQueue());
            next.merge(new Series(LQ_UNADMITTED, queue.and(reasons)), (double) u.count(),
                    Double::sum);
        }
        unadmitted.publish(next);
    }
}
