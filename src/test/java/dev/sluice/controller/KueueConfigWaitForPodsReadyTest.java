package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.session.WaitForPodsReadyConfig;
import dev.sluice.readiness.RequeuingTimestamp;
import dev.sluice.readiness.WaitForPodsReady;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The application started with {@code sluice.kueue-config} naming a Kueue Configuration whose waitForPodsReady block
 * differs from every default: the controller's waitForPodsReady settings are the file's, except what is set as a
 * Sluice property explicitly (here backoffMaxSeconds, as a system property would).
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(KueueConfigWaitForPodsReadyTest.WithKueueConfig.class)
class KueueConfigWaitForPodsReadyTest {

    public static class WithKueueConfig implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.kueue-config", "src/test/resources/kueue-config/wait-for-pods-ready.yaml",
                    "sluice.wait-for-pods-ready.backoff-max-seconds", "900");
        }
    }

    @Inject
    WaitForPodsReadyConfig config;

    @Test
    void theControllerRunsWithTheFilesWaitForPodsReady() {
        WaitForPodsReady settings = config.settings();
        assertThat(settings.enabled()).isTrue();
        assertThat(settings.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(settings.recoveryTimeout()).isEqualTo(Duration.ofMinutes(90));
        assertThat(settings.blockAdmission()).isTrue();
        assertThat(settings.requeuingTimestamp()).isEqualTo(RequeuingTimestamp.Creation);
        assertThat(settings.backoffLimitCount()).isEqualTo(4);
        assertThat(settings.backoffBaseSeconds()).isEqualTo(15);
        assertThat(settings.backoffMaxSeconds()).as("the explicit Sluice property wins").isEqualTo(900);
    }
}
