package dev.sluice.sim;

import dev.sluice.engine.Engine;
import dev.sluice.engine.LocalQueueSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Admission fair sharing in {@code simulate}: after each instant, every LocalQueue's usage as Kueue's gauge
 * kueue_local_queue_admission_fair_sharing_usage reports it (consumed plus entry penalties, resource-weighted, over
 * the LocalQueue's weight), kept as peak and last, with the last sample's consumed resources (status
 * .fairSharing.admissionFairSharingStatus.consumedResources). Made only when admission fair sharing is on.
 */
public final class LocalQueueUsageTracker {

    /** One LocalQueue at the end of the run. */
    public record Row(String namespace, String name, String clusterQueue, double weight, double peakUsage,
            double lastUsage, Map<String, Double> consumed) {
    }

    private final List<LocalQueueSpec> localQueues;
    private final Map<String, double[]> peakAndLast = new TreeMap<>();

    LocalQueueUsageTracker(List<LocalQueueSpec> localQueues) {
        this.localQueues = localQueues;
    }

    void sample(Engine engine) {
        for (LocalQueueSpec lq : localQueues) {
            var usage = engine.localQueueAdmissionFairSharingUsage(lq.namespace(), lq.name());
            if (usage.isPresent()) {
                double[] pl = peakAndLast.computeIfAbsent(lq.namespace() + "/" + lq.name(), k -> new double[2]);
                pl[0] = Math.max(pl[0], usage.getAsDouble());
                pl[1] = usage.getAsDouble();
            }
        }
    }

    /** Every LocalQueue, in namespace/name order, with the engine's consumed resources at the end. */
    List<Row> rows(Engine engine) {
        List<Row> out = new ArrayList<>();
        for (LocalQueueSpec lq : localQueues) {
            double[] pl = peakAndLast.getOrDefault(lq.namespace() + "/" + lq.name(), new double[2]);
            out.add(new Row(lq.namespace(), lq.name(), lq.clusterQueue(), lq.weight(), pl[0], pl[1],
                    new TreeMap<>(engine.localQueueConsumedResources(lq.namespace(), lq.name()).orElse(Map.of()))));
        }
        out.sort(java.util.Comparator.comparing(Row::namespace).thenComparing(Row::name));
        return out;
    }
}
