package dev.sluice.metrics;

import dev.sluice.metrics.SnapshotGauges.Series;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's {@code kueue_local_queue_admission_fair_sharing_usage{name,namespace,cluster_queue}}: one series per
 * sampled LocalQueue, fed by whole lists; a series goes when its LocalQueue (or its ClusterQueue) is no longer in the
 * list. The value is Kueue's unit: resource amounts in Kubernetes units (cores, bytes), weighted and summed.
 */
final class AdmissionFairSharingGauges {

    private final SnapshotGauges gauges;

    AdmissionFairSharingGauges(MeterRegistry registry) {
        this.gauges = new SnapshotGauges(registry);
    }

    synchronized void update(List<AdmissionEvents.LocalQueueFairSharingUsage> usages) {
        Map<Series, Double> next = new LinkedHashMap<>();
        for (AdmissionEvents.LocalQueueFairSharingUsage u : usages) {
            if (u.namespace() == null || u.name() == null || u.clusterQueue() == null) {
                throw new IllegalArgumentException(KueueMeters.LOCAL_QUEUE_AFS_USAGE.name()
                        + ": a LocalQueue without namespace, name or ClusterQueue: " + u);
            }
            Tags tags = Tags.of("name", u.name()).and("namespace", u.namespace()).and("cluster_queue", u.clusterQueue());
            next.put(new Series(KueueMeters.LOCAL_QUEUE_AFS_USAGE, tags), u.usage());
        }
        gauges.publish(next);
    }
}
