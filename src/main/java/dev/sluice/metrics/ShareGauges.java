package dev.sluice.metrics;

import dev.sluice.metrics.SnapshotGauges.Series;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One of Kueue's weighted-share gauges ({@code kueue_cluster_queue_weighted_share{cluster_queue}},
 * {@code kueue_cohort_weighted_share{cohort}}), fed by whole maps: a series appears with its queue or cohort and is
 * removed when a map no longer has it.
 */
final class ShareGauges {

    private final Metric metric;
    private final String label;
    private final SnapshotGauges gauges;

    ShareGauges(MeterRegistry registry, Metric metric, String label) {
        this.metric = metric;
        this.label = label;
        this.gauges = new SnapshotGauges(registry);
    }

    synchronized void update(Map<String, Double> shares) {
        Map<Series, Double> next = new LinkedHashMap<>();
        shares.forEach((key, share) -> {
            if (key == null || key.isEmpty()) {
                throw new IllegalArgumentException(metric.name() + ": a share without a " + label + " name: " + shares);
            }
            next.put(new Series(metric, Tags.of(label, key)), share);
        });
        gauges.publish(next);
    }
}
