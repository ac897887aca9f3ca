package dev.sluice.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's {@code kueue_local_queue_admission_fair_sharing_usage{name,namespace,cluster_queue}}: one series per
 * sampled LocalQueue, fed by whole lists; a series goes when its LocalQueue (or its ClusterQueue) is no longer in the
 * list. The value is Kueue's unit: resource amounts in Kubernetes units (cores, bytes), weighted and summed.
 */
final class AdmissionFairSharingGauges {

    private record Series(String namespace, String name, String clusterQueue) {
    }

    private final MeterRegistry registry;
    private volatile Map<Series, Double> values = Map.of();
    /** Registered gauges; touched only under this object's lock. */
    private final Map<Series, Gauge> gauges = new HashMap<>();

    AdmissionFairSharingGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    synchronized void update(List<AdmissionEvents.LocalQueueFairSharingUsage> usages) {
        Map<Series, Double> next = new HashMap<>();
        for (AdmissionEvents.LocalQueueFairSharingUsage u : usages) {
            if (u.namespace() == null || u.name() == null || u.clusterQueue() == null) {
                throw new IllegalArgumentException(KueueMeters.LOCAL_QUEUE_AFS_USAGE
                        + ": a LocalQueue without namespace, name or ClusterQueue: " + u);
            }
            next.put(new Series(u.namespace(), u.name(), u.clusterQueue()), u.usage());
        }
        values = Map.copyOf(next);
        for (Series key : next.keySet()) {
            gauges.computeIfAbsent(key, k -> Gauge.builder(KueueMeters.LOCAL_QUEUE_AFS_USAGE, this,
                            g -> g.values.getOrDefault(k, Double.NaN))
                    .description(KueueMeters.LOCAL_QUEUE_AFS_USAGE_HELP)
                    .tag("name", k.name()).tag("namespace", k.namespace()).tag("cluster_queue", k.clusterQueue())
                    .strongReference(true).register(registry));
        }
        gauges.entrySet().removeIf(e -> {
            if (next.containsKey(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }
}
