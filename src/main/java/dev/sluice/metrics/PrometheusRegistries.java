package dev.sluice.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.CollectorRegistry;
import java.util.Optional;

/**
 * Finds the Prometheus registry behind a Micrometer registry: the injected one is often a composite (Quarkus's
 * global registry), and the per-workload series need the Prometheus collector registry itself.
 */
final class PrometheusRegistries {

    private PrometheusRegistries() {
    }

    static Optional<CollectorRegistry> collectorRegistry(MeterRegistry registry) {
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            return Optional.of(prometheus.getPrometheusRegistry());
        }
        if (registry instanceof CompositeMeterRegistry composite) {
            for (MeterRegistry child : composite.getRegistries()) {
                Optional<CollectorRegistry> found = collectorRegistry(child);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }
}
