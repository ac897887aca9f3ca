package dev.sluice.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;

/**
 * Gauges fed by whole snapshots: the values live in one immutable map replaced per snapshot (read by the scrape
 * thread); a gauge is registered when its series first appears and removed when a snapshot no longer has it, as
 * Kueue deletes the series of a queue, cohort, flavor or resource that is gone.
 */
final class SnapshotGauges {

    /** One series: a metric and its labels. */
    record Series(Metric metric, Tags tags) {
    }

    private final MeterRegistry registry;
    private volatile Map<Series, Double> values = Map.of();
    /** Registered gauges; touched only under this object's lock. */
    private final Map<Series, Gauge> gauges = new HashMap<>();

    SnapshotGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Publishes {@code snapshot}; new series are registered in its iteration order. */
    synchronized void publish(Map<Series, Double> snapshot) {
        Map<Series, Double> published = Map.copyOf(snapshot);
        values = published;
        for (Series series : snapshot.keySet()) {
            gauges.computeIfAbsent(series, this::register);
        }
        gauges.entrySet().removeIf(e -> {
            if (published.containsKey(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }

    private Gauge register(Series series) {
        return Gauge.builder(series.metric().name(), this, g -> g.values.getOrDefault(series, Double.NaN))
                .description(series.metric().help())
                .tags(series.tags())
                .strongReference(true)
                .register(registry);
    }
}
