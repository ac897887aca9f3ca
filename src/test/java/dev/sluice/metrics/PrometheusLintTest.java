package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The filter that keeps third-party meters promtool-clean, on a registry of its own. */
class PrometheusLintTest {

    @Test
    void theOperatorSdkReconcileTimerKeepsItsHistogramButNoQuantileLabels() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new PrometheusLint().promtoolClean());
        // as QOSDK registers it: client-side percentiles and a histogram at once
        for (String name : new String[] {"operator.sdk.controllers.execution.reconcile", "sluice.other"}) {
            Timer.builder(name).publishPercentiles(0.3, 0.5, 0.95).publishPercentileHistogram()
                    .register(registry).record(Duration.ofMillis(5));
        }
        String text = registry.scrape();
        assertThat(text.lines().filter(l -> l.startsWith("operator_sdk_controllers_execution_reconcile_seconds")))
                .isNotEmpty().noneMatch(l -> l.contains("quantile="))
                .anyMatch(l -> l.startsWith("operator_sdk_controllers_execution_reconcile_seconds_bucket{"));
        // meters of others are left as they are
        assertThat(text).contains("sluice_other_seconds{quantile=\"0.5\"");
    }
}
