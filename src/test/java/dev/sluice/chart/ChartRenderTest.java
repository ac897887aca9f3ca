package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Renders with defaults and with every switch flipped; every object parses into its typed fabric8 class. */
class ChartRenderTest {

    /** Kinds that are not Kubernetes built-ins; everything else must come back typed. */
    static final Set<String> FOREIGN = Set.of("cert-manager.io/v1 Issuer", "cert-manager.io/v1 Certificate",
            "monitoring.coreos.com/v1 ServiceMonitor");
    static final long MIB = 1024L * 1024;

    static Stream<Arguments> switches() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("everything flipped", Chart.values("webhook.replicas", 3, "webhook.tls.certManager", false,
                        "metrics.serviceMonitor.enabled", true, "metrics.grafanaDashboard.enabled", true,
                        "controller.leaderElection.enabled", false, "controller.replicas", 2,
                        "webhook.validateQueueObjects", false, "serviceAccount.name", "other",
                        "integrations.job", false, "integrations.tfjob", true, "integrations.pytorchjob", true,
                        "integrations.mpijob", true, "integrations.rayjob", true, "integrations.sparkapplication", true,
                        "integrations.workflow", true, "imagePullSecrets[0].name", "regcred")),
                Arguments.of("no kinds", Chart.values("integrations.job", false, "integrations.jobset", false)),
                Arguments.of("no kinds, no queue validation", Chart.values("integrations.job", false,
                        "integrations.jobset", false, "webhook.validateQueueObjects", false)),
                Arguments.of("webhook replicas, cert-manager", Chart.values("webhook.replicas", 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("switches")
    void everyObjectIsValidForItsKind(String name, Map<String, Object> values) {
        Chart.Rendered r = Chart.render(values);
        assertThat(r.objects()).isNotEmpty();
        Set<String> seen = new HashSet<>();
        for (HasMetadata o : r.objects()) {
            String kind = o.getApiVersion() + " " + o.getKind();
            if (o instanceof GenericKubernetesResource) {
                assertThat(FOREIGN).as("%s %s came back untyped: not a valid %s", kind, o.getMetadata().getName(),
                        o.getKind()).contains(kind);
            }
            assertThat(o.getMetadata().getName()).as(kind).matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
            assertThat(seen.add(kind + "/" + o.getMetadata().getName())).as("duplicate " + kind).isTrue();
            assertThat(o.getMetadata().getLabels()).containsEntry("app.kubernetes.io/instance", "sluice");
        }
        for (Deployment d : r.all(Deployment.class)) {
            Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
            assertThat(podLabels).containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
            Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertThat(c.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("management");
            assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
            List<String> ports = new java.util.ArrayList<>(List.of("https:8443", "management:9000"));
            if (d.getMetadata().getName().equals("sluice")) {
                ports.add("visibility:8082"); // the controller pods serve the visibility API
            }
            assertThat(c.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
                    .containsExactlyInAnyOrderElementsOf(ports);
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        }
        for (Service s : r.all(Service.class)) {
            assertThat(r.all(Deployment.class)).as("a Deployment whose pods Service %s selects", s.getMetadata().getName())
                    .anyMatch(d -> d.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                            .containsAll(s.getSpec().getSelector().entrySet()));
        }
    }

    @Test
    void byDefaultTheControllerServesTheWebhooks() {
        Chart.Rendered r = Chart.render();
        Deployment controller = r.one(Deployment.class, "sluice");
        assertThat(env(controller, "SLUICE_MODE")).isEqualTo("all");
        assertThat(controller.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("sluice.dev/serves-webhooks", "true");
        assertThat(r.find(Deployment.class, "sluice-webhook")).isEmpty();
        assertThat(r.all(PodDisruptionBudget.class)).isEmpty();
        assertThat(r.one(Service.class, "sluice-webhook").getSpec().getPorts()).singleElement()
                .satisfies(p -> assertThat(p.getPort()).isEqualTo(443));
    }

    @Test
    void webhookReplicasGetTheirOwnDeploymentAndPdb() {
        Chart.Rendered r = Chart.render(Chart.values("webhook.replicas", 3, "webhook.pdb.minAvailable", 2));
        Deployment controller = r.one(Deployment.class, "sluice");
        Deployment webhook = r.one(Deployment.class, "sluice-webhook");
        assertThat(env(controller, "SLUICE_MODE")).isEqualTo("controller");
        assertThat(controller.getSpec().getTemplate().getMetadata().getLabels()).doesNotContainKey("sluice.dev/serves-webhooks");
        assertThat(env(webhook, "SLUICE_MODE")).isEqualTo("webhook");
        assertThat(webhook.getSpec().getReplicas()).isEqualTo(3);
        PodDisruptionBudget pdb = r.one(PodDisruptionBudget.class, "sluice-webhook");
        assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(2);
        assertThat(webhook.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
        Service svc = r.one(Service.class, "sluice-webhook");
        assertThat(webhook.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(svc.getSpec().getSelector());
        assertThat(controller.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                .containsAll(svc.getSpec().getSelector().entrySet())).as("controller pods are webhook endpoints").isFalse();
    }

    @Test
    void jvmOptionsAndResourcesFollowTheValues() {
        Chart.Rendered r = Chart.render(Chart.values("controller.jvm.maxHeap", "300m", "controller.jvm.maxMetaspace", "80m",
                "controller.jvm.initialHeap", "32m", "controller.jvm.footprintOptions[0]", "-XX:TieredStopAtLevel=1",
                "controller.jvm.extraOptions[0]", "-Xss256k", "controller.resources.limits.memory", "512Mi",
                "controller.resources.requests.cpu", "250m", "webhook.replicas", 1, "webhook.jvm.maxHeap", "48m",
                "webhook.jvm.initialHeap", "", "webhook.jvm.footprintOptions", "null",
                "webhook.resources.limits.memory", "160Mi"));
        Deployment controller = r.one(Deployment.class, "sluice");
        assertThat(env(controller, "JDK_JAVA_OPTIONS")).isEqualTo("-XX:+UseSerialGC -Xms32m -Xmx300m -XX:MaxMetaspaceSize=80m "
                + "-XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -Xss256k");
        Container c = controller.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getResources().getLimits()).containsEntry("memory", new Quantity("512Mi"));
        assertThat(c.getResources().getRequests()).containsEntry("cpu", new Quantity("250m"));
        Deployment webhook = r.one(Deployment.class, "sluice-webhook");
        assertThat(env(webhook, "JDK_JAVA_OPTIONS"))
                .isEqualTo("-XX:+UseSerialGC -Xmx48m -XX:MaxMetaspaceSize=64m -XX:+ExitOnOutOfMemoryError");
        assertThat(webhook.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits())
                .containsEntry("memory", new Quantity("160Mi"));
    }

    @Test
    void defaultsAreASmallFootprintThatFitsTheHeap() {
        Deployment controller = Chart.render().one(Deployment.class, "sluice");
        List<String> opts = List.of(env(controller, "JDK_JAVA_OPTIONS").split(" "));
        assertThat(opts).contains("-XX:+UseSerialGC", "-Xms16m", "-Xmx320m", "-XX:MaxMetaspaceSize=96m",
                "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1", "-XX:TrimNativeHeapInterval=1000");
        Container c = controller.getSpec().getTemplate().getSpec().getContainers().get(0);
        long limit = c.getResources().getLimits().get("memory").getNumericalAmount().longValue();
        long request = c.getResources().getRequests().get("memory").getNumericalAmount().longValue();
        // the whole heap plus what the benchmark measured outside it (metaspace, code cache, symbols, threads,
        // native buffers: at most 125 MiB with these options) must stay under the limit
        assertThat(limit).isGreaterThanOrEqualTo((320L + 128) * MIB).isLessThanOrEqualTo(512L * MIB);
        assertThat(request).isLessThanOrEqualTo(limit);
        Deployment webhook = Chart.render(Chart.values("webhook.replicas", 1)).one(Deployment.class, "sluice-webhook");
        assertThat(List.of(env(webhook, "JDK_JAVA_OPTIONS").split(" "))).contains("-Xmx64m", "-XX:TieredStopAtLevel=1");
    }

    /** bench/e2e.sh measures the controller with the chart's JVM options: bench/lib.sh must list the same ones. */
    @Test
    void theBenchmarkRunsTheChartsJvmOptions() throws Exception {
        String lib = Files.readString(Path.of("bench", "lib.sh"));
        Matcher m = Pattern.compile("(?m)^CONTROLLER_JVM_FLAGS=\\((.*)\\)$").matcher(lib);
        assertThat(m.find()).as("CONTROLLER_JVM_FLAGS=(...) in bench/lib.sh").isTrue();
        Deployment controller = Chart.render().one(Deployment.class, "sluice");
        assertThat(m.group(1).trim()).isEqualTo(env(controller, "JDK_JAVA_OPTIONS"));
    }

    @Test
    void leaderElectionSettingsReachTheController() {
        Deployment controller = Chart.render(Chart.values("controller.leaderElection.leaseName", "lease-x"))
                .one(Deployment.class, "sluice");
        assertThat(env(controller, "SLUICE_LEADER_ELECTION_ENABLED")).isEqualTo("true");
        assertThat(env(controller, "SLUICE_LEADER_ELECTION_LEASE_NAME")).isEqualTo("lease-x");
        assertThat(env(controller, "SLUICE_LEADER_ELECTION_NAMESPACE")).isEqualTo(Chart.NAMESPACE);
        assertThat(controller.getSpec().getStrategy().getType()).isEqualTo("Recreate");
    }

    @Test
    void kubeQueueCompatIsOnUnlessSwitchedOff() {
        Deployment byDefault = Chart.render().one(Deployment.class, "sluice");
        assertThat(byDefault.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .noneMatch(e -> e.getName().equals("SLUICE_KUBE_QUEUE_COMPAT"));
        Deployment off = Chart.render(Chart.values("kubeQueueCompat", false)).one(Deployment.class, "sluice");
        assertThat(env(off, "SLUICE_KUBE_QUEUE_COMPAT")).isEqualTo("false");
        assertThat(env(off, "SLUICE_INTEGRATIONS_RAYJOB_ENABLED")).isEqualTo("false");
    }

    @Test
    void anUnknownKindSwitchIsRejectedWithTheKnownNames() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Chart.render(Chart.values("integrations.leaderworkerset", true)))
                .hasMessageContaining("integrations.leaderworkerset").hasMessageContaining("jaxjob, job, jobset, mpijob");
    }

    static String env(Deployment d, String name) {
        List<EnvVar> env = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        return env.stream().filter(e -> e.getName().equals(name)).map(EnvVar::getValue).findFirst()
                .orElseThrow(() -> new AssertionError("no env " + name + " in " + d.getMetadata().getName()));
    }
}
