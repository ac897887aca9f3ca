package dev.sluice.metrics;

import dev.sluice.metrics.AdmissionEvents.CohortMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortResourceMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalResourceMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kueue's LocalQueue gauges ({@code kueue_local_queue_*}, behind Kueue's LocalQueueMetrics gate; labels name and
 * namespace) and cohort subtree gauges ({@code kueue_cohort_subtree_*}), fed by whole snapshots as
 * {@link QueueGauges} is: one immutable value map replaced per snapshot, a gauge registered when its series first
 * appears and removed when a snapshot no longer has it (queue or cohort gone), as Kueue deletes such series.
 */
final class LocalQueueAndCohortGauges {

    static final String LQ_PENDING = "kueue_local_queue_pending_workloads";
    static final String LQ_PENDING_HELP = "The number of pending workloads, per 'local_queue' and 'status' (active: in "
            + "the admission queue; inadmissible: a failed admission attempt, not retried until cluster conditions change)";
    static final String LQ_RESERVING = "kueue_local_queue_reserving_active_workloads";
    static final String LQ_RESERVING_HELP = "The number of Workloads that are reserving quota, per 'localQueue'";
    static final String LQ_ADMITTED = "kueue_local_queue_admitted_active_workloads";
    static final String LQ_ADMITTED_HELP = "The number of admitted Workloads that are active, per 'localQueue'";
    static final String LQ_STATUS = "kueue_local_queue_status";
    static final String LQ_STATUS_HELP = "Reports 'localQueue' with its 'active' status (with possible values 'True', "
            + "'False', or 'Unknown'); only one of them is 1";
    static final String LQ_RESERVATION = "kueue_local_queue_resource_reservation";
    static final String LQ_RESERVATION_HELP = "Reports the localQueue's total resource reservation within all the flavors";
    static final String LQ_USAGE = "kueue_local_queue_resource_usage";
    static final String LQ_USAGE_HELP = "Reports the localQueue's total resource usage within all the flavors";
    static final String COHORT_QUOTA = "kueue_cohort_subtree_quota";
    static final String COHORT_QUOTA_HELP = "Reports the cohort's nominal quota aggregated within the cohort's subtree, "
            + "per resource and flavor";
    static final String COHORT_RESERVATIONS = "kueue_cohort_subtree_resource_reservations";
    static final String COHORT_RESERVATIONS_HELP = "Reports the cohort's resource reservations aggregated within the "
            + "cohort's subtree, per resource and flavor";
    static final String COHORT_ADMITTED = "kueue_cohort_subtree_admitted_active_workloads";
    static final String COHORT_ADMITTED_HELP = "The number of admitted Workloads that are active, per cohort's subtree";

    static final String UNADMITTED = "kueue_unadmitted_workloads";
    static final String UNADMITTED_HELP = "The number of workloads not admitted, per 'cluster_queue', 'reason' (of the "
            + "Admitted condition) and 'underlying_cause' (the reason of the QuotaReserved condition)";
    static final String LQ_UNADMITTED = "kueue_local_queue_unadmitted_workloads";
    static final String LQ_UNADMITTED_HELP = "The number of workloads not admitted, per 'localQueue', 'reason' (of the "
            + "Admitted condition) and 'underlying_cause' (the reason of the QuotaReserved condition)";

    private static final List<String> CONDITION_STATUSES = List.of("True", "False", "Unknown");

    private record Series(String name, String help, Tags tags) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Series s && s.name.equals(name) && s.tags.equals(tags);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, tags);
        }
    }

    private final MeterRegistry registry;
    private volatile Map<Series, Double> localQueues = Map.of();
    private volatile Map<Series, Double> cohorts = Map.of();
    private volatile Map<Series, Double> unadmitted = Map.of();
    /** Registered gauges; touched only under this object's lock. */
    private final Map<Series, Gauge> gauges = new HashMap<>();

    LocalQueueAndCohortGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    synchronized void localQueues(List<LocalQueueMetrics> snapshot) {
        Map<Series, Double> next = new LinkedHashMap<>();
        for (LocalQueueMetrics lq : snapshot) {
            if (lq.name() == null || lq.namespace() == null) {
                throw new IllegalArgumentException("LocalQueue metrics need a name and a namespace, got " + lq);
            }
            Tags queue = Tags.of("name", lq.name()).and("namespace", lq.namespace());
            next.put(new Series(LQ_PENDING, LQ_PENDING_HELP, queue.and("status", "active")), (double) lq.pendingActive());
            next.put(new Series(LQ_PENDING, LQ_PENDING_HELP, queue.and("status", "inadmissible")),
                    (double) lq.pendingInadmissible());
            next.put(new Series(LQ_RESERVING, LQ_RESERVING_HELP, queue), (double) lq.reservingWorkloads());
            next.put(new Series(LQ_ADMITTED, LQ_ADMITTED_HELP, queue), (double) lq.admittedWorkloads());
            for (String status : CONDITION_STATUSES) {
                next.put(new Series(LQ_STATUS, LQ_STATUS_HELP, queue.and("active", status)),
                        status.equals(lq.active()) ? 1.0 : 0.0);
            }
            for (LocalResourceMetrics r : lq.resources()) {
                Tags tags = queue.and("flavor", r.flavor()).and("resource", r.resource());
                next.put(new Series(LQ_RESERVATION, LQ_RESERVATION_HELP, tags), r.reservedMilli() / 1000.0);
                next.put(new Series(LQ_USAGE, LQ_USAGE_HELP, tags), r.usedMilli() / 1000.0);
            }
        }
        localQueues = Map.copyOf(next);
        sync();
    }

    synchronized void cohorts(List<CohortMetrics> snapshot) {
        Map<Series, Double> next = new LinkedHashMap<>();
        for (CohortMetrics c : snapshot) {
            if (c.name() == null || c.name().isEmpty()) {
                throw new IllegalArgumentException("cohort metrics need a name, got " + c);
            }
            Tags cohort = Tags.of("cohort", c.name());
            next.put(new Series(COHORT_ADMITTED, COHORT_ADMITTED_HELP, cohort), (double) c.admittedActiveWorkloads());
            for (CohortResourceMetrics r : c.resources()) {
                Tags tags = cohort.and("flavor", r.flavor()).and("resource", r.resource());
                // Kueue deletes a subtree series whose value is not above 0 (applyCohortMetricPoint)
                if (r.subtreeQuotaMilli() > 0) {
                    next.put(new Series(COHORT_QUOTA, COHORT_QUOTA_HELP, tags), r.subtreeQuotaMilli() / 1000.0);
                }
                if (r.reservedMilli() > 0) {
                    next.put(new Series(COHORT_RESERVATIONS, COHORT_RESERVATIONS_HELP, tags), r.reservedMilli() / 1000.0);
                }
            }
        }
        cohorts = Map.copyOf(next);
        sync();
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
            next.merge(new Series(UNADMITTED, UNADMITTED_HELP, reasons.and("cluster_queue", u.clusterQueue())),
                    (double) u.count(), Double::sum);
            // KEP 10852 gives the LocalQueue series its ClusterQueue too
            Tags queue = Tags.of("name", u.localQueue()).and("namespace", u.namespace())
                    .and("cluster_queue", u.clusterQueue());
            next.merge(new Series(LQ_UNADMITTED, LQ_UNADMITTED_HELP, queue.and(reasons)), (double) u.count(),
                    Double::sum);
        }
        unadmitted = Map.copyOf(next);
        sync();
    }

    private void sync() {
        Map<Series, Double> lq = localQueues;
        Map<Series, Double> co = cohorts;
        Map<Series, Double> un = unadmitted;
        for (Series s : lq.keySet()) {
            gauges.computeIfAbsent(s, this::register);
        }
        for (Series s : co.keySet()) {
            gauges.computeIfAbsent(s, this::register);
        }
        for (Series s : un.keySet()) {
            gauges.computeIfAbsent(s, this::register);
        }
        gauges.entrySet().removeIf(e -> {
            if (lq.containsKey(e.getKey()) || co.containsKey(e.getKey()) || un.containsKey(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }

    private Gauge register(Series series) {
        return Gauge.builder(series.name(), this, g -> {
            Double v = g.localQueues.get(series);
            if (v == null) {
                v = g.cohorts.get(series);
            }
            return v != null ? v : g.unadmitted.getOrDefault(series, Double.NaN);
        }).description(series.help()).tags(series.tags()).strongReference(true).register(registry);
    }
}
