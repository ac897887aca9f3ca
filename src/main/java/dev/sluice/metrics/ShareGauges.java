package dev.sluice.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;

/**
 * One of Kueue's weighted-share gauges ({@code kueue_cluster_queue_weighted_share{cluster_queue}},
 * {@code kueue_cohort_weighted_share{cohort}}), fed by whole maps: a series appears with its queue or cohort and is
 * removed when a map no longer has it.
 */
final class ShareGauges {

    private final MeterRegistry registry;
    private final String name;
    private final String help;
    private final String label;
    private volatile Map<String, Double> values = Map.of();
    /** Registered gauges; touched only under this object's lock. */
    private final Map<String, Gauge> gauges = new HashMap<>();

    ShareGauges(MeterRegistry registry, String name, String help, String label) {
        this.registry = registry;
        this.name = name;
        this.help = help;
        this.label = label;
    }

    synchronized void update(Map<String, Double> shares) {
        for (String key : shares.keySet()) {
            if (key == null || key.isEmpty()) {
                throw new IllegalArgumentException(name + ": a share without a " + label + " name: " + shares);
            }
        }
        values = Map.copyOf(shares);
        for (String key : shares.keySet()) {
            gauges.computeIfAbsent(key, k -> Gauge.builder(name, this, g -> g.values.getOrDefault(k, Double.NaN))
                    .description(help).tag(label, k).strongReference(true).register(registry));
        }
        gauges.entrySet().removeIf(e -> {
            if (shares.containsKey(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }
}
