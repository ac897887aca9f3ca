package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kueue's Configuration file: what is applied, what is named as not applied, and where a broken file breaks. */
class KueueConfigReaderTest {

    static final Path DEFAULT = Path.of("src", "test", "resources", "kueue-config", "kueue-0.19-default.yaml");

    @TempDir
    Path dir;

    Path file(String text) throws Exception {
        Path f = dir.resolve("controller_manager_config.yaml");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void kueuesDefaultChartConfigReads() {
        KueueConfigReader.Result r = KueueConfigReader.read(DEFAULT);
        assertThat(r.config().apiVersion()).isEqualTo("config.kueue.x-k8s.io/v1beta2");
        assertThat(r.integrations()).containsEntry("job", true).containsEntry("jobset", true).containsEntry("mpijob", true)
                .containsEntry("rayjob", true).containsEntry("tfjob", false).containsEntry("pytorchjob", false)
                .containsEntry("sparkapplication", false);
        assertThat(r.notices()).contains("health: ignored (Sluice's own settings and chart values cover the manager)")
                .anySatisfy(n -> assertThat(n).startsWith("integrations.frameworks: ray.io/rayservice: ignored: Sluice does not queue this kind"))
                .anySatisfy(n -> assertThat(n).startsWith("integrations.frameworks: pod: ignored"))
                .anySatisfy(n -> assertThat(n).contains("applied as").contains("sluice.integrations.mpijob.enabled=true"));
    }

    @Test
    void sectionsOthersBuildAreTypedAndNamedAsNotYetApplied() throws Exception {
        KueueConfigReader.Result r = KueueConfigReader.read(file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                waitForPodsReady:
                  enable: true
                  timeout: 5m
                  requeuingStrategy: {timestamp: Eviction, backoffLimitCount: 3}
                fairSharing: {enable: true, preemptionStrategies: [LessThanOrEqualToFinalShare]}
                objectRetentionPolicies: {workloads: {afterFinished: 1h}}
                somethingNew: 1
                """));
        assertThat(r.config().waitForPodsReady().timeout()).isEqualTo("5m");
        assertThat(r.config().waitForPodsReady().requeuingStrategy().backoffLimitCount()).isEqualTo(3);
        assertThat(r.config().fairSharing().preemptionStrategies()).containsExactly("LessThanOrEqualToFinalShare");
        assertThat(r.config().objectRetentionPolicies().workloads().afterFinished()).isEqualTo("1h");
        assertThat(r.notices()).contains("waitForPodsReady: read, not yet applied (the feature is being built)",
                "objectRetentionPolicies: read, not yet applied (the feature is being built)",
                "somethingNew: ignored (not a field Sluice knows of Kueue's Configuration)");
        assertThat(r.integrations()).as("no frameworks listed: Sluice's own switches stay").isEmpty();
    }

    @Test
    void whatWouldChangeAdmissionsIsRefusedByName() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                manageJobsWithoutQueueName: true
                resources: {excludeResourcePrefixes: [example.com/]}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(f)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("manageJobsWithoutQueueName: refused")
                .hasMessageContaining("resources: refused: Sluice counts every resource as requested");
    }

    @Test
    void aBrokenFileNamesItsLine() throws Exception {
        Path syntax = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                integrations:
                  frameworks: [batch/job
                waitForPodsReady: {}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(syntax)).hasMessageStartingWith(syntax + ":")
                .hasMessageContaining("does not parse as YAML").hasMessageMatching("(?s)[^:]*:[456]: .*");
        Path type = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                waitForPodsReady:
                  enable: maybe
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(type)).hasMessageStartingWith(type + ":4: waitForPodsReady.enable: ");
        Path kind = file("apiVersion: v1\nkind: ConfigMap\n");
        assertThatThrownBy(() -> KueueConfigReader.read(kind)).hasMessageContaining("is not Kueue's Configuration");
    }

    @Test
    void theFileSetsSluicesIntegrationsUnlessSetExplicitly() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new MapBackedConfigSource("application", Map.of(
                KueueConfigSource.PROPERTY, DEFAULT.toString(), "sluice.integrations.tfjob.enabled", "true",
                "sluice.integrations.mpijob.enabled", "false"), 250) {
        }).withSources(new MapBackedConfigSource("explicit", Map.of("sluice.integrations.rayjob.enabled", "false"), 400) {
        }).withSources(new KueueConfigSource()).build();
        assertThat(config.getValue("sluice.integrations.mpijob.enabled", Boolean.class)).as("the file over application.properties").isTrue();
        assertThat(config.getValue("sluice.integrations.tfjob.enabled", Boolean.class)).isFalse();
        assertThat(config.getValue("sluice.integrations.rayjob.enabled", Boolean.class)).as("a system property wins").isFalse();
    }
}
