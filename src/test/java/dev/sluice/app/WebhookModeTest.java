package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.OperatorLifecycle;
import dev.sluice.SluiceMode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Webhook replicas start with no cluster at all: nothing may try to reach the API server at start. */
@QuarkusTest
@TestProfile(WebhookModeTest.NoCluster.class)
class WebhookModeTest {

    public static class NoCluster implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.mode", "webhook",
                    // a port nothing listens on: any call to the cluster would fail
                    "quarkus.kubernetes-client.api-server-url", "https://127.0.0.1:1",
                    "quarkus.operator-sdk.crd.apply", "false");
        }
    }

    @Inject
    OperatorLifecycle lifecycle;

    @Test
    void startsWithoutACluster() throws Exception {
        assertThat(lifecycle.mode()).isEqualTo(SluiceMode.webhook);
        assertThat(ManagementEndpoint.get("/q/health/live").statusCode()).isEqualTo(200);
        var ready = ManagementEndpoint.get("/q/health/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
    }
}
