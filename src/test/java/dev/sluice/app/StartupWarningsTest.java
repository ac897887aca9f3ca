package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A normal start logs no WARN a user would read as trouble: neither fabric8's "unstable version 'v1beta1'" (Kueue's
 * API is v1beta1) nor QOSDK's "configured not to start/stop automatically" (OperatorLifecycle starts it by mode).
 */
@QuarkusTest
@WithKubernetesTestServer
class StartupWarningsTest {

    @Test
    void noWarningFromTheVersionCheckOrTheOperatorSdkAtStart() throws Exception {
        // the file handler of the test profile (WARN and above), rotated when this application started
        Path file = Path.of(ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class));
        assertThat(file).exists();
        // fabric8 warns once per type and JVM, so an earlier application in this JVM may have used up the warning:
        // a type never used before must not warn either
        io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils.log("probe" + UUID.randomUUID(), "v1beta1");
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).noneMatch(l -> l.contains("VersionUsageUtils") || l.contains("unstable version"))
                .noneMatch(l -> l.contains("AppEventListener") || l.contains("configured not to start"));
    }
}
