package dev.sluice.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Locale;

/**
 * Keeps the whole /q/metrics scrape clean for {@code promtool check metrics}, third-party meters included: every
 * meter gets help text (netty, vert.x and the operator SDK register some without), {@code system_cpu_count} is
 * spelt {@code system_cpus} (no {@code _count} suffix outside histograms), and two meters Prometheus cannot lint
 * clean are dropped: {@code process_cpu_time_ns} (nanoseconds; the kubelet reports container cpu in seconds) and
 * the long-task timer {@code http_server_connections_seconds} (written as a summary without quantiles). The operator
 * SDK's reconcile timer asks for both client-side percentiles and a histogram, which the Prometheus text format writes
 * as {@code quantile} labels on a histogram (promtool: "non-summary metrics should not have quantile label"): its
 * percentiles are dropped, the histogram stays. Kueue's and Sluice's own meters are left as they are.
 */
public class PrometheusLint {

    @Produces
    @Singleton
    MeterFilter promtoolClean() {
        return new MeterFilter() {
            @Override
            public io.micrometer.core.instrument.config.MeterFilterReply accept(Meter.Id id) {
                return "process.cpu.time".equals(id.getName()) || "http.server.connections".equals(id.getName())
                        ? io.micrometer.core.instrument.config.MeterFilterReply.DENY
                        : io.micrometer.core.instrument.config.MeterFilterReply.NEUTRAL;
            }

            @Override
            public io.micrometer.core.instrument.distribution.DistributionStatisticConfig configure(Meter.Id id,
                    io.micrometer.core.instrument.distribution.DistributionStatisticConfig config) {
                if (!id.getName().startsWith("operator.sdk")) {
                    return config;
                }
                return io.micrometer.core.instrument.distribution.DistributionStatisticConfig.builder()
                        .percentiles(new double[0]).build().merge(config);
            }

            @Override
            public Meter.Id map(Meter.Id id) {
                String name = id.getName();
                String baseUnit = id.getBaseUnit();
                if ("system.cpu.count".equals(name)) {
                    name = "system.cpus";
                }
                String description = id.getDescription();
                if (description == null || description.isBlank()) {
                    description = name.replace('.', ' ').replace('_', ' ').toLowerCase(Locale.ROOT);
                }
                if (name.equals(id.getName()) && description.equals(id.getDescription())
                        && java.util.Objects.equals(baseUnit, id.getBaseUnit())) {
                    return id;
                }
                return new Meter.Id(name, Tags.of(id.getTagsAsIterable()), baseUnit, description, id.getType());
            }
        };
    }
}
