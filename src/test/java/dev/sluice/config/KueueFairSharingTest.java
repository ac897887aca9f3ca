package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.controller.session.FairSharingConfig;
import dev.sluice.engine.FairSharing;
import dev.sluice.engine.FairSharingStrategy;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kueue's fairSharing block onto sluice.fair-sharing.*, in both Configuration versions. */
class KueueFairSharingTest {

    @TempDir
    Path dir;

    Path file(String text) throws Exception {
        Path f = dir.resolve("controller_manager_config.yaml");
        Files.writeString(f, text);
        return f;
    }

    FairSharing settings(Path file, Map<String, String> explicit) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withSources(new MapBackedConfigSource("application", Map.of(KueueConfigSource.PROPERTY, file.toString()), 250) {
                }).withSources(new MapBackedConfigSource("explicit", explicit, 400) {
                }).withSources(new KueueConfigSource()).withMapping(FairSharingConfig.class).build();
        return config.getConfigMapping(FairSharingConfig.class).settings();
    }

    @Test
    void v1beta1EnableAndStrategiesAreApplied() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                fairSharing:
                  enable: true
                  preemptionStrategies: [LessThanInitialShare]
                """);
        assertThat(KueueConfigReader.read(f).notices()).contains("fairSharing: applied as sluice.fair-sharing.enabled=true,"
                + " sluice.fair-sharing.preemption-strategies=LessThanInitialShare");
        assertThat(settings(f, Map.of())).isEqualTo(new FairSharing(true, List.of(FairSharingStrategy.LessThanInitialShare)));
        assertThat(settings(f, Map.of("sluice.fair-sharing.enabled", "false"))).as("an explicit setting wins")
                .isEqualTo(FairSharing.OFF);
    }

    @Test
    void v1beta1WithoutEnableStaysOff() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                fairSharing: {preemptionStrategies: [LessThanOrEqualToFinalShare]}
                """);
        assertThat(settings(f, Map.of()).enabled()).isFalse();
    }

    @Test
    void inV1beta2TheBlockSwitchesItOnWithKueuesDefaultStrategies() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                fairSharing: {}
                """);
        assertThat(settings(f, Map.of())).isEqualTo(FairSharing.on());
        assertThat(FairSharing.on().strategies()).containsExactly(FairSharingStrategy.LessThanOrEqualToFinalShare,
                FairSharingStrategy.LessThanInitialShare);
        Path none = file("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n");
        assertThat(settings(none, Map.of())).isEqualTo(FairSharing.OFF);
    }

    @Test
    void managedJobsNamespaceSelectorChangesNothingForLabeledJobsAsInKueue() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                manageJobsWithoutQueueName: false
                managedJobsNamespaceSelector:
                  matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]
                """);
        KueueConfigReader.Result r = KueueConfigReader.read(f);
        assertThat(r.config().managedJobsNamespaceSelector().path("matchExpressions").get(0).path("operator").asText())
                .isEqualTo("NotIn");
        assertThat(r.notices()).anySatisfy(n -> assertThat(n).startsWith("managedJobsNamespaceSelector: read; as in Kueue")
                .contains("a job with kueue.x-k8s.io/queue-name is managed in any namespace"));
        assertThat(r.integrations()).isEmpty();
        assertThat(settings(f, Map.of())).isEqualTo(FairSharing.OFF);
    }

    @Test
    void anUnknownStrategyStopsTheStartByName() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                fairSharing: {preemptionStrategies: [LessThanFinalShare]}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(f)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("fairSharing.preemptionStrategies: LessThanFinalShare: refused: not one of Kueue's"
                        + " strategies (LessThanOrEqualToFinalShare, LessThanInitialShare)");
    }
}
