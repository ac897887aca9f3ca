package dev.sluice.metrics;

import static dev.sluice.metrics.KueueMeters.*;

import dev.sluice.metrics.AdmissionEvents.ClusterQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.ResourceMetrics;
import dev.sluice.metrics.SnapshotGauges.Series;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's per-ClusterQueue gauges, fed by whole snapshots ({@link SnapshotGauges}): a series goes when its queue is
 * deleted, its flavor or resource dropped or its cohort changed, as Kueue deletes such series.
 */
final class QueueGauges {

    private static final List<String> CQ_STATUSES = List.of("pending", "active", "terminating");

    private final SnapshotGauges gauges;
    private Set<String> queues = Set.of();

    QueueGauges(MeterRegistry registry) {
        this.gauges = new SnapshotGauges(registry);
    }

    /** Publishes the snapshot; returns the names of ClusterQueues that were in the previous one and are gone. */
    synchronized Set<String> update(List<ClusterQueueMetrics> snapshot) {
        Map<Series, Double> next = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        for (ClusterQueueMetrics cq : snapshot) {
            if (cq.name() == null || cq.name().isEmpty()) {
                throw new IllegalArgumentException("ClusterQueue metrics without a name in the snapshot: " + cq);
            }
            names.add(cq.name());
            addQueue(next, cq);
        }
        gauges.publish(next);
        Set<String> gone = new HashSet<>(queues);
        gone.removeAll(names);
        queues = Set.copyOf(names);
        return gone;
    }

    private static void addQueue(Map<Series, Double> out, ClusterQueueMetrics cq) {
        Tags queue = Tags.of(CLUSTER_QUEUE, cq.name());
        out.put(new Series(PENDING_WORKLOADS, queue.and(STATUS, "active")), (double) cq.pendingActive());
        out.put(new Series(PENDING_WORKLOADS, queue.and(STATUS, "inadmissible")), (double) cq.pendingInadmissible());
        out.put(new Series(RESERVING_ACTIVE_WORKLOADS, queue), (double) cq.reservingWorkloads());
        out.put(new Series(ADMITTED_ACTIVE_WORKLOADS, queue), (double) cq.admittedWorkloads());
        // The snapshot knows active or not; an inactive ClusterQueue is "pending" in Kueue's words.
        String current = cq.active() ? "active" : "pending";
        for (String status : CQ_STATUSES) {
            out.put(new Series(CLUSTER_QUEUE_STATUS, queue.and(STATUS, status)), status.equals(current) ? 1.0 : 0.0);
        }
        String cohort = cq.cohort() == null ? "" : cq.cohort();
        for (ResourceMetrics r : cq.resources() == null ? List.<ResourceMetrics>of() : cq.resources()) {
            if (r.flavor() == null || r.resource() == null) {
                throw new IllegalArgumentException("ClusterQueue " + cq.name()
                        + ": resource metrics need both a flavor and a resource name, got " + r);
            }
            Tags tags = Tags.of(COHORT, cohort).and(CLUSTER_QUEUE, cq.name()).and(FLAVOR, r.flavor())
                    .and(RESOURCE, r.resource());
            out.put(new Series(NOMINAL_QUOTA, tags), units(r.nominalMilli()));
            out.put(new Series(BORROWING_LIMIT, tags), limit(r.borrowingLimitMilli()));
            out.put(new Series(LENDING_LIMIT, tags), limit(r.lendingLimitMilli()));
            out.put(new Series(RESOURCE_RESERVATION, tags), units(r.reservedMilli()));
            out.put(new Series(RESOURCE_USAGE, tags), units(r.usedMilli()));
        }
    }

    /** Milli-units to the resource's units (cpu 500m is 0.5), as Kueue reports quantities. */
    private static double units(long milli) {
        return milli / 1000.0;
    }

    /** No limit is reported as +Inf, as current Kueue does. */
    private static double limit(Long milli) {
        return milli == null ? Double.POSITIVE_INFINITY : units(milli);
    }
}
