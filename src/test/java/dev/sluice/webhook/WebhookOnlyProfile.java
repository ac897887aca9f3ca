package dev.sluice.webhook;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The webhook tests' one Quarkus boot: {@code sluice.mode=webhook} with an API server address where nothing
 * listens, so any cluster call would fail; the webhooks must work without one.
 */
public class WebhookOnlyProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("sluice.mode", "webhook",
                "quarkus.kubernetes-client.api-server-url", "https://127.0.0.1:1",
                "quarkus.operator-sdk.crd.apply", "false",
                // short, so that TlsReloadTest sees a rotated certificate served within seconds
                "quarkus.tls.reload-period", "1s");
    }
}
