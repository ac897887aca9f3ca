package dev.sluice.metrics;

import dev.sluice.apiserver.ApiServerRules;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.ManagementEndpoint;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The CDI bean behind AdmissionEvents feeds the application's /q/metrics, per-workload series included. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class MetricsEndpointTest {

    @Inject
    AdmissionEvents events;

    @Test
    void eventsShowOnTheMetricsEndpoint() throws Exception {
        events.admitted("endpoint-test-queue", 4);
        events.workloadStarted("endpoint-test", "wl-1", Instant.now().minusSeconds(30));

        var response = ManagementEndpoint.get("/q/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        // the endpoint may answer in OpenMetrics (no trailing comma in label sets) or in the 0.0.4 text format
        assertThat(response.body())
                .containsPattern("kueue_admitted_workloads_total\\{cluster_queue=\"endpoint-test-queue\",?} 1\\.0")
                .containsPattern("kueue_admission_wait_time_seconds_bucket\\{cluster_queue=\"endpoint-test-queue\","
                        + "le=\"5\\.0\",?} 1\\.0")
                .containsPattern("sluice_workload_uptime_seconds\\{namespace=\"endpoint-test\",workload=\"wl-1\",?} "
                        + "([3-9]\\d|\\d{3,})(\\.\\d+)?\n"); // started 30 s ago
        events.workloadFinished("endpoint-test", "wl-1", Instant.now());
        assertThat(ManagementEndpoint.get("/q/metrics").body()).doesNotContain("workload=\"wl-1\"");
    }
}
