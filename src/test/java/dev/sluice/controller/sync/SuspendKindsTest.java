package dev.sluice.controller.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.Cluster;
import dev.sluice.controller.ControllerRuntime;
import dev.sluice.controller.FakeJobController;
import dev.sluice.controller.Queues;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.PodDemand;
import dev.sluice.jobs.PodSetTemplate;
import dev.sluice.jobs.WellKnown;
import dev.sluice.jobs.WorkloadNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kinds Kueue v0.19.2 holds by a suspend field that came with issue 28, each through the controller with its real
 * CRD installed (src/test/resources/crds/): held at creation (as the webhook holds it), its Workload named as Kueue
 * names it with the kind's pod sets, admitted and started with the flavor's node labels, preempted by a
 * higher-priority Job (held again, templates as submitted), admitted again once that one finished, and finished by
 * the kind's own status (a RayCluster, which never finishes, is deleted instead). Each kind in its own namespace and ClusterQueue, whose quota is exactly the job's demand.
 * The kinds are off by default and switched on for the tests (application.properties, profile test).
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class SuspendKindsTest {

    static final JobKinds KINDS = JobKinds.standard();
    static final String FLAVOR = "suspend-kinds";
    static final String HIGH = "suspend-kinds-high";

    @Inject
    KubernetesClient client;
    @Inject
    ControllerRuntime runtime;

    @org.junit.jupiter.api.Test
    void theRayClusterOfAQueuedRayJobIsNotQueuedItself() {
        cluster = new Cluster(client);
        JobKind rayCluster = KINDS.forApiVersionKind("ray.io/v1", "RayCluster").orElseThrow();
        JobKind rayJob = KINDS.forApiVersionKind("ray.io/v1", "RayJob").orElseThrow();
        installCrd(rayCluster);
        cluster.registerCrd(rayJob);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.watchedKinds().containsAll(List.of("raycluster", "rayjob")));
        String ns = "suspend-raycluster-of-rayjob";
        queues(ns, "100");
        // what KubeRay makes of a released RayJob: a RayCluster it controls, with the RayJob's labels
        GenericKubernetesResource owner = jobs(rayJob, ns).resource(Serialization.unmarshal("""
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: rj}
                spec: {entrypoint: "python -c 1"}
                """, GenericKubernetesResource.class)).create();
        GenericKubernetesResource child = manifest("raycluster.yaml");
        child.getMetadata().setNamespace(ns);
        child.getMetadata().setOwnerReferences(List.of(new io.fabric8.kubernetes.api.model.OwnerReference(
                "ray.io/v1", true, true, "RayJob", "rj", owner.getMetadata().getUid())));
        GenericKubernetesResource created = jobs(rayCluster, ns).resource(child).create();
        // a labeled Job after it: once that one is admitted, the controller has seen the RayCluster
        Job sentinel = highPriorityJob(ns, "1");
        cluster.awaitWorkload(sentinel, Cluster::admitted);
        assertThat(cluster.workloadOf(created)).as("the RayJob's Workload stands for its RayCluster").isNull();
        assertThat(rayCluster.isSuspended(jobs(rayCluster, ns).withName(created.getMetadata().getName()).get()))
                .isFalse();
    }

    Cluster cluster;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xgboostjob.yaml", "paddlejob.yaml", "jaxjob.yaml", "raycluster.yaml", "rayservice.yaml", "appwrapper.yaml"})
    void heldAdmittedStartedPreemptedRestoredFinished(String file) {
        cluster = new Cluster(client);
        GenericKubernetesResource job = manifest(file);
        JobKind kind = KINDS.forJob(job).orElseThrow();
        installCrd(kind);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.watchedKinds().contains(kind.integrationName()));
        String ns = "suspend-" + kind.integrationName();
        job.getMetadata().setNamespace(ns);
        List<PodSetTemplate> expected = kind.podSets(job);
        BigDecimal cpu = BigDecimal.ZERO;
        for (PodSetTemplate ps : expected) {
            cpu = cpu.add(PodDemand.of(ps.template().getSpec()).get("cpu").multiply(BigDecimal.valueOf(ps.count())));
        }
        queues(ns, cpu.toPlainString());

        // held at creation, as the webhook holds a labeled job
        kind.hold(job);
        assertThat(kind.isSuspended(job)).isTrue();
        GenericKubernetesResource created = jobs(kind, ns).resource(job).create();

        // its Workload: Kueue's name, the kind's pod sets; admitted, then started with the flavor's node labels
        Workload wl = cluster.awaitWorkload(created, Cluster::admitted);
        assertThat(wl.getMetadata().getName()).isEqualTo(WorkloadNames.forJob(kind.kind(), kind.group(),
                created.getMetadata().getName(), created.getMetadata().getUid()));
        assertThat(wl.getMetadata().getName()).startsWith(kind.kind().toLowerCase(java.util.Locale.ROOT) + "-"
                + created.getMetadata().getName() + "-");
        assertThat(wl.getSpec().getQueueName()).isEqualTo("lq");
        assertThat(wl.getSpec().getPodSets()).extracting(PodSet::getName, PodSet::getCount)
                .containsExactlyElementsOf(expected.stream().map(p -> tuple(p.name(), p.count())).toList());
        GenericKubernetesResource running = awaitJob(kind, ns, j -> !kind.isSuspended(j));
        if (kind.integrationName().equals("appwrapper")) {
            // the wrapped objects are left as they are: each pod set's start goes to its component's podSetInfos
            assertThat(kind.podSets(running)).isEqualTo(expected);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> components = (List<Map<String, Object>>) Cluster.spec(running).get("components");
            List<Map<String, Object>> infos = new java.util.ArrayList<>();
            for (Map<String, Object> c : components) {
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> of = (List<Map<String, Object>>) c.get("podSetInfos");
                infos.addAll(of);
            }
            assertThat(infos).hasSameSizeAs(expected).allSatisfy(info -> assertThat(info)
                    .containsEntry("nodeSelector", Map.of("pool", FLAVOR)));
            assertThat(infos).extracting(info -> (Object) ((Map<?, ?>) info.get("labels")).get(WellKnown.POD_SET))
                    .containsExactlyElementsOf(expected.stream().map(ps -> (Object) ps.name()).toList());
        } else {
            assertThat(kind.podSets(running)).allSatisfy(ps -> {
                assertThat(ps.template().getSpec().getNodeSelector()).containsEntry("pool", FLAVOR);
                assertThat(ps.template().getMetadata().getLabels()).containsEntry(WellKnown.POD_SET, ps.name());
            });
        }

        // preempted by a higher-priority Job needing the whole quota: held again, its templates as submitted
        Job high = highPriorityJob(ns, cpu.toPlainString());
        Workload evicted = cluster.awaitWorkload(created, w -> Cluster.isTrue(w, "Requeued")
                && Cluster.isTrue(w, "Evicted"));
        assertThat(Cluster.condition(evicted, "Evicted").getReason()).isEqualTo("Preempted");
        GenericKubernetesResource held = awaitJob(kind, ns, j -> kind.isSuspended(j) && !JobSync.stopping(j));
        assertThat(kind.podSets(held)).isEqualTo(expected);
        if (kind.integrationName().equals("appwrapper")) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> components = (List<Map<String, Object>>) Cluster.spec(held).get("components");
            assertThat(components).allSatisfy(c -> assertThat(c).doesNotContainKey("podSetInfos"));
        }
        cluster.awaitWorkload(high, Cluster::admitted);

        // the Job finishes: admitted and started again, then finished by the kind's controller
        new FakeJobController(client).finishJob(ns, high.getMetadata().getName(), true);
        cluster.awaitWorkload(created, Cluster::admitted);
        awaitJob(kind, ns, j -> !kind.isSuspended(j));
        if (kind.integrationName().equals("raycluster") || kind.integrationName().equals("rayservice")) {
            // a RayCluster or RayService has no end (Kueue never counts it finished): deleted, its Workload goes with it
            jobs(kind, ns).withName(created.getMetadata().getName()).delete();
            await().atMost(Cluster.TIMEOUT).until(() -> cluster.workloadOf(created) == null);
            return;
        }
        finish(kind, ns, created.getMetadata().getName());
        Workload finished = cluster.awaitWorkload(created, w -> Cluster.isTrue(w, "Finished"));
        assertThat(Cluster.condition(finished, "Finished").getReason()).isEqualTo("Succeeded");
    }

    // ---- helpers ----

    private GenericKubernetesResource manifest(String file) {
        try (InputStream in = getClass().getResourceAsStream("/jobs/" + file)) {
            return Serialization.unmarshal(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The kind's real CRD, from src/test/resources/crds/. */
    private void installCrd(JobKind kind) {
        String name = kind.plural() + "." + kind.group();
        if (client.apiextensions().v1().customResourceDefinitions().withName(name).get() != null) {
            return;
        }
        try (InputStream in = getClass().getResourceAsStream("/crds/" + kind.group() + "_" + kind.plural() + ".yaml")) {
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            assertThat(crd.getMetadata().getName()).isEqualTo(name);
            assertThat(crd.getSpec().getVersions()).anySatisfy(v -> assertThat(v.getName()).isEqualTo(kind.version()));
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void queues(String ns, String cpu) {
        cluster.namespace(ns);
        if (client.resource(Queues.flavor(FLAVOR, "{}")).get() == null) {
            client.resource(Queues.flavor(FLAVOR, "{pool: " + FLAVOR + "}")).create();
        }
        if (client.scheduling().v1().priorityClasses().withName(HIGH).get() == null) {
            client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                    .withName(HIGH).endMetadata().withValue(1000).build()).create();
        }
        client.resource(Queues.yaml(dev.sluice.api.v1beta2.ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s-cq}
                spec:
                  namespaceSelector: {}
                  preemption: {withinClusterQueue: LowerPriority}
                  resourceGroups:
                  - coveredResources: [cpu, memory]
                    flavors:
                    - name: %s
                      resources:
                      - {name: cpu, nominalQuota: "%s"}
                      - {name: memory, nominalQuota: 100Gi}
                """.formatted(ns, FLAVOR, cpu))).create();
        client.resource(Queues.localQueue(ns, "lq", ns + "-cq")).create();
    }

    /** A held, labeled batch Job of priority 1000 asking for {@code cpu}: the whole quota. */
    private Job highPriorityJob(String ns, String cpu) {
        Job job = new JobBuilder().withNewMetadata().withName("high").withNamespace(ns)
                .addToLabels(WellKnown.QUEUE_NAME, "lq").endMetadata()
                .withNewSpec().withSuspend(true).withNewTemplate().withNewSpec().withRestartPolicy("Never")
                .withPriorityClassName(HIGH).addNewContainer().withName("c").withImage("busybox")
                .withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity(cpu))
                .endResources().endContainer().endSpec().endTemplate().endSpec().build();
        return client.batch().v1().jobs().inNamespace(ns).resource(job).create();
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> jobs(JobKind kind, String ns) {
        return client.genericKubernetesResources(ClusterCache.context(kind)).inNamespace(ns);
    }

    private GenericKubernetesResource awaitJob(JobKind kind, String ns, Predicate<GenericKubernetesResource> condition) {
        return await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(50))
                .until(() -> jobs(kind, ns).list().getItems().stream().findFirst().orElse(null),
                        j -> j != null && condition.test(j));
    }

    /** Plays the kind's own controller: the terminal status its adapter reads. */
    private void finish(JobKind kind, String ns, String name) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        Map<String, Object> status = switch (kind.integrationName()) {
            case "xgboostjob", "paddlejob", "jaxjob" -> Map.of("conditions", List.of(Map.of("type", "Succeeded",
                    "status", "True", "reason", kind.kind() + "Succeeded", "lastTransitionTime", now)));
            case "appwrapper" -> Map.of("phase", "Succeeded");
            default -> throw new IllegalArgumentException(kind.kind());
        };
        jobs(kind, ns).withName(name).editStatus(j -> {
            j.getAdditionalProperties().put("status", new HashMap<>(status));
            return j;
        });
    }
}
