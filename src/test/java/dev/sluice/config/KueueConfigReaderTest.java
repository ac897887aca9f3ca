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
                .containsEntry("sparkapplication", false).containsEntry("xgboostjob", false)
                .containsEntry("paddlejob", false).containsEntry("jaxjob", false)
                .containsEntry("raycluster", true).containsEntry("rayservice", true)
                .containsEntry("appwrapper", true);
        assertThat(r.notices()).contains("health: ignored (Sluice's own settings and chart values cover the manager)")
                .noneSatisfy(n -> assertThat(n).startsWith("integrations.frameworks: ray.io/rayservice"))
                .anySatisfy(n -> assertThat(n).startsWith("integrations.frameworks: pod: ignored"))
                .anySatisfy(n -> assertThat(n).contains("applied as").contains("sluice.integrations.mpijob.enabled=true"));
    }

    @Test
    void sectionsAreTypedAndNamedWithWhatIsApplied() throws Exception {
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
        assertThat(r.notices()).contains("waitForPodsReady: applied as sluice.wait-for-pods-ready.enabled=true, "
                        + "sluice.wait-for-pods-ready.timeout=PT5M, sluice.wait-for-pods-ready.block-admission=true, "
                        + "sluice.wait-for-pods-ready.requeuing-strategy.timestamp=Eviction, "
                        + "sluice.wait-for-pods-ready.backoff-limit-count=3 (a sluice.wait-for-pods-ready.* environment "
                        + "variable or system property wins)",
                "objectRetentionPolicies.workloads: applied as sluice.object-retention.workloads.after-finished=PT1H",
                "somethingNew: ignored (not a field Sluice knows of Kueue's Configuration)");
        assertThat(r.integrations()).as("no frameworks listed: Sluice's own switches stay").isEmpty();
    }

    @Test
    void objectRetentionPoliciesBecomeSluiceDurations() throws Exception {
        KueueConfigReader.Result r = KueueConfigReader.read(file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                objectRetentionPolicies:
                  workloads:
                    afterFinished: 1h30m
                    afterDeactivatedByKueue: 0s
                """));
        assertThat(KueueRetention.properties(r.config().objectRetentionPolicies(), "f")).containsExactly(
                Map.entry("sluice.object-retention.workloads.after-finished", "PT1H30M"),
                Map.entry("sluice.object-retention.workloads.after-deactivated-by-kueue", "PT0S"));
        assertThat(r.notices()).contains("objectRetentionPolicies.workloads: applied as "
                + "sluice.object-retention.workloads.after-finished=PT1H30M, "
                + "sluice.object-retention.workloads.after-deactivated-by-kueue=PT0S");
        assertThat(KueueRetention.goDuration("2.5s", "x", "f")).isEqualTo(java.time.Duration.ofMillis(2500));
        assertThat(KueueRetention.goDuration("1h1m1s500ms", "x", "f")).isEqualTo(java.time.Duration.ofMillis(3_661_500));
    }

    @Test
    void aRetentionPolicyLeftOutKeepsWorkloadsAndABadOneIsNamed() throws Exception {
        KueueConfigReader.Result kept = KueueConfigReader.read(file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                objectRetentionPolicies: {workloads: {afterFinished: null}}
                """));
        assertThat(KueueRetention.properties(kept.config().objectRetentionPolicies(), "f")).isEmpty();
        assertThat(kept.notices()).anyMatch(n -> n.startsWith("objectRetentionPolicies: read; no workloads policy set"));
        Path negative = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                objectRetentionPolicies: {workloads: {afterFinished: -5m}}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(negative)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("objectRetentionPolicies.workloads.afterFinished: \"-5m\" is negative");
        Path malformed = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                objectRetentionPolicies: {workloads: {afterDeactivatedByKueue: 1 day}}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(malformed)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("objectRetentionPolicies.workloads.afterDeactivatedByKueue: \"1 day\" is not a duration");
    }

    @Test
    void whatWouldChangeAdmissionsIsRefusedByName() throws Exception {
        Path f = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                manageJobsWithoutQueueName: true
                resources: {excludeResourcePrefixes: [example.com/]}
                admissionFairSharing: {usageHalfLifeTime: 168h}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(f)).isInstanceOf(KueueConfigException.class)
                .hasMessageContaining("manageJobsWithoutQueueName: refused")
                .hasMessageContaining("resources: refused: Sluice counts every resource as requested")
                .hasMessageNotContaining("admissionFairSharing");
    }

    @Test
    void admissionFairSharingIsApplied() throws Exception {
        KueueConfigReader.Result r = KueueConfigReader.read(file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                admissionFairSharing: {usageHalfLifeTime: 168h}
                """));
        assertThat(r.notices()).anySatisfy(n -> assertThat(n).startsWith("admissionFairSharing: applied as "
                + "sluice.admission-fair-sharing.enabled=true, sluice.admission-fair-sharing.usage-half-life-time=PT168H"));
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
    void waitForPodsReadyBecomesSluicesPropertiesWithItsVersionsDefaultsUnlessSetExplicitly() throws Exception {
        SmallRyeConfig v1beta2 = config(Path.of("src", "test", "resources", "kueue-config", "wait-for-pods-ready.yaml"),
                Map.of("sluice.wait-for-pods-ready.backoff-base-seconds", "20"));
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.timeout", java.time.Duration.class))
                .isEqualTo(java.time.Duration.ofMinutes(10));
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.recovery-timeout", java.time.Duration.class))
                .as("Go's 1h30m").isEqualTo(java.time.Duration.ofMinutes(90));
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.block-admission", Boolean.class)).isTrue();
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.requeuing-strategy.timestamp", String.class))
                .isEqualTo("Creation");
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.backoff-limit-count", Integer.class)).isEqualTo(4);
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.backoff-max-seconds", Integer.class)).isEqualTo(600);
        assertThat(v1beta2.getValue("sluice.wait-for-pods-ready.backoff-base-seconds", Integer.class))
                .as("a system property wins over the file").isEqualTo(20);
        assertThat(v1beta2.getOptionalValue("sluice.wait-for-pods-ready.enabled", Boolean.class))
                .as("v1beta2 has no enable: Sluice's default (on) stays").isEmpty();

        // config v1beta1: off unless enabled, and once enabled blockAdmission defaults to on and the timeout to 5m
        SmallRyeConfig off = config(file("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"), Map.of());
        assertThat(off.getValue("sluice.wait-for-pods-ready.enabled", Boolean.class)).isFalse();
        SmallRyeConfig on = config(file("""
                apiVersion: config.kueue.x-k8s.io/v1beta1
                kind: Configuration
                waitForPodsReady: {enable: true, recoveryTimeout: 0s}
                """), Map.of());
        assertThat(on.getValue("sluice.wait-for-pods-ready.enabled", Boolean.class)).isTrue();
        assertThat(on.getValue("sluice.wait-for-pods-ready.block-admission", Boolean.class)).isTrue();
        assertThat(on.getValue("sluice.wait-for-pods-ready.timeout", java.time.Duration.class))
                .isEqualTo(java.time.Duration.ofMinutes(5));
        assertThat(on.getValue("sluice.wait-for-pods-ready.recovery-timeout", java.time.Duration.class))
                .as("0s: no recovery timeout, as in Kueue").isZero();

        Path badDuration = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                waitForPodsReady: {timeout: ten minutes}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(badDuration)).isInstanceOf(KueueConfigException.class)
                .hasMessage(badDuration + ": waitForPodsReady.timeout: \"ten minutes\" is not a duration (Kueue takes "
                        + "Go's form: 30m, 1h30m, 90s)");
        Path badTimestamp = file("""
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                waitForPodsReady: {requeuingStrategy: {timestamp: Admission}}
                """);
        assertThatThrownBy(() -> KueueConfigReader.read(badTimestamp))
                .hasMessageContaining("waitForPodsReady.requeuingStrategy.timestamp: \"Admission\" is neither Eviction nor Creation");
    }

    private static SmallRyeConfig config(Path kueueConfig, Map<String, String> explicit) {
        return new SmallRyeConfigBuilder().withSources(new MapBackedConfigSource("application", Map.of(
                KueueConfigSource.PROPERTY, kueueConfig.toString()), 250) {
        }).withSources(new MapBackedConfigSource("explicit", explicit, 400) {
        }).withSources(new KueueConfigSource()).build();
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
