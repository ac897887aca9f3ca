package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.controller.session.AdmissionFairSharingConfig;
import dev.sluice.engine.AdmissionFairSharing;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kueue's admissionFairSharing block onto sluice.admission-fair-sharing.*, and those onto the engine's settings. */
class KueueAdmissionFairSharingTest {

    @TempDir
    Path dir;

    Path file(String text) throws Exception {
        Path f = dir.resolve("controller_manager_config.yaml");
        Files.writeString(f, text);
        return f;
    }

    AdmissionFairSharing settings(Path file, Map<String, String> explicit) {
        Map<String, String> app = file == null ? Map.of() : Map.of(KueueConfigSource.PROPERTY, file.toString());
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withSources(new MapBackedConfigSource("application", app, 250) {
                }).withSources(new MapBackedConfigSource("explicit", explicit, 400) {
                }).withSources(new KueueConfigSource()).withMapping(AdmissionFairSharingConfig.class).build();
        return config.getConfigMapping(AdmissionFairSharingConfig.class).settings();
    }

    @Test
    void theBlockSwitchesItOnWithItsDurationsAndWeights() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                admissionFairSharing:
                  usageHalfLifeTime: 168h
                  usageSamplingInterval: 30s
                  resourceWeights: {cpu: 2.0, nvidia.com/gpu: 0.5}
                """);
        assertThat(KueueConfigReader.read(f).notices()).anySatisfy(n -> assertThat(n).startsWith(
                "admissionFairSharing: applied as sluice.admission-fair-sharing.enabled=true, "
                        + "sluice.admission-fair-sharing.usage-half-life-time=PT168H, "
                        + "sluice.admission-fair-sharing.usage-sampling-interval=PT30S"));
        assertThat(settings(f, Map.of())).isEqualTo(new AdmissionFairSharing(true, 168 * 3_600_000L, 30_000L,
                Map.of("cpu", 2.0, "nvidia.com/gpu", 0.5)));
        assertThat(settings(f, Map.of("sluice.admission-fair-sharing.enabled", "false"))).as("an explicit setting wins")
                .isEqualTo(AdmissionFairSharing.OFF);
    }

    @Test
    void anEmptyBlockTakesKueuesDefaultsAndNoBlockLeavesItOff() throws Exception {
        Path on = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                admissionFairSharing: {}
                """);
        assertThat(settings(on, Map.of())).isEqualTo(new AdmissionFairSharing(true, 0, 5 * 60_000L, Map.of()));
        Path off = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                """);
        assertThat(settings(off, Map.of())).isEqualTo(AdmissionFairSharing.OFF);
        assertThat(settings(null, Map.of())).isEqualTo(AdmissionFairSharing.OFF);
    }

    @Test
    void sluicePropertiesAloneSwitchItOn() {
        assertThat(settings(null, Map.of("sluice.admission-fair-sharing.enabled", "true",
                "sluice.admission-fair-sharing.usage-half-life-time", "PT10M",
                "sluice.admission-fair-sharing.resource-weights.memory", "0")))
                .isEqualTo(new AdmissionFairSharing(true, 600_000L, 300_000L, Map.of("memory", 0.0)));
    }

    @Test
    void badValuesAreNamed() throws Exception {
        Path duration = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                admissionFairSharing: {usageHalfLifeTime: 1 week}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(duration)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("admissionFairSharing.usageHalfLifeTime: \"1 week\" is not a duration");
        Path interval = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                admissionFairSharing: {usageSamplingInterval: 0s}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(interval)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("admissionFairSharing.usageSamplingInterval: \"0s\" must be more than 0");
        Path weight = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                admissionFairSharing: {resourceWeights: {cpu: -1}}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(weight)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("admissionFairSharing.resourceWeights.cpu: -1.0 is not a weight");
    }
}
