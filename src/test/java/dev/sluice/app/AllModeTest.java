package dev.sluice.app;

import dev.sluice.apiserver.ApiServerRules;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.OperatorLifecycle;
import dev.sluice.SluiceMode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class AllModeTest {

    @Inject
    OperatorLifecycle lifecycle;

    @Test
    void startsControllerAndServesHealthAndMetrics() throws Exception {
        assertThat(lifecycle.mode()).isEqualTo(SluiceMode.all);
        var live = ManagementEndpoint.get("/q/health/live");
        assertThat(live.statusCode()).isEqualTo(200);
        var ready = ManagementEndpoint.get("/q/health/ready");
        // SluiceReadiness is UP in this mode only once the operator has started with healthy event sources
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).contains("\"mode\": \"all\"");
        var metrics = ManagementEndpoint.get("/q/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("jvm_memory_used_bytes");
    }
}
