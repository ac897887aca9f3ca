package dev.sluice.controller.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.StopPolicy;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.Cluster;
import dev.sluice.controller.ControllerRuntime;
import dev.sluice.controller.Queues;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.PodDemand;
import dev.sluice.jobs.PodSetTemplate;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each ack-kube-queue seed through the controller, both ways in: with the queue label (held the kind's way, as the
 * webhook would) and as submitted (held the ack-kube-queue way, no label: LocalQueue default). Queued, admitted
 * (released where it was held), evicted by ClusterQueue stopPolicy HoldAndDrain (held again the same way, templates
 * restored), admitted again and finished. Each case in its own namespace and ClusterQueue.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class AckKubeQueueSeedsTest {

    static final JobKinds KINDS = JobKinds.standard();
    static final String FLAVOR = "ack-flavor";
    static final List<String> SEEDS = List.of("job-queued.yaml", "tfjob-queued.yaml", "pytorchjob-queued.yaml",
            "mpijob-queued.yaml", "rayjob-queued.yaml", "spark-queued.yaml", "argo-workflow-queued.yaml");

    @Inject
    KubernetesClient client;
    @Inject
    ControllerRuntime runtime;

    Cluster cluster;

    @BeforeEach
    void setUp() throws Exception {
        cluster = new Cluster(client);
        KINDS.all().forEach(cluster::registerCrd);
        // the CRDs may come after the controller started: it finds them by discovery (sluice.controller.crd-recheck)
        List<String> all = KINDS.all().stream().map(JobKind::integrationName).toList();
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.watchedKinds().containsAll(all));
        if (client.resource(Queues.flavor(FLAVOR, "{}")).get() == null) {
            client.resource(Queues.flavor(FLAVOR, "{pool: ack}")).create();
        }
    }

    static Stream<Arguments> seedsBothWays() {
        return SEEDS.stream().flatMap(f -> Stream.of(Arguments.of(f, "label"), Arguments.of(f, "ack")));
    }

    @ParameterizedTest(name = "{0}, {1} way")
    @MethodSource("seedsBothWays")
    void queuedAdmittedEvictedFinished(String file, String way) {
        String ns = "ack-" + file.replace("-queued.yaml", "").replace("argo-workflow", "argo") + "-" + way;
        String queue = way.equals("label") ? "lq" : "default";
        queues(ns, queue);
        GenericKubernetesResource job = seed(file, ns);
        JobKind kind = KINDS.forJob(job).orElseThrow();
        if (way.equals("label")) {
            unhold(job);
            job.getMetadata().setLabels(new HashMap<>(Map.of(WellKnown.QUEUE_NAME, queue)));
            kind.hold(job); // what the webhook does
        } else {
            assertThat(kind.heldTheAckWay(job)).isTrue();
        }
        Map<String, Object> holds = holds(job);
        assertThat(holds).as("held somewhere").isNotEmpty();
        List<PodSetTemplate> expected = kind.podSets(job);
        GenericKubernetesResource created = jobs(kind, ns).resource(job).create();

        // queued and admitted: the Workload has the manifest's pod sets, the job is released where it was held
        Workload wl = cluster.awaitWorkload(created, Cluster::admitted);
        assertThat(wl.getSpec().getQueueName()).isEqualTo(queue);
        assertThat(wl.getSpec().getPodSets()).extracting(PodSet::getName, PodSet::getCount)
                .containsExactlyElementsOf(expected.stream().map(p -> org.assertj.core.groups.Tuple.tuple(p.name(), p.count())).toList());
        for (PodSetTemplate ps : expected) {
            PodSetAssignment psa = wl.getStatus().getAdmission().getPodSetAssignments().stream()
                    .filter(a -> a.getName().equals(ps.name())).findFirst().orElseThrow();
            PodDemand.of(ps.template().getSpec()).forEach((resource, perPod) -> {
                if (perPod.signum() > 0) {
                    assertThat(PodDemand.amount(psa.getResourceUsage().get(resource), resource))
                            .as(ps.name() + " " + resource).isEqualByComparingTo(perPod.multiply(BigDecimal.valueOf(ps.count())));
                }
            });
        }
        GenericKubernetesResource running = awaitJob(kind, ns, j -> released(j, holds));
        assertThat(kind.isSuspended(running)).isFalse();
        assertThat(kind.podSets(running)).allSatisfy(ps -> {
            assertThat(ps.template().getSpec().getNodeSelector()).containsEntry("pool", "ack");
            if (!kind.integrationName().equals("workflow")) { // a Workflow's pods are labeled by Argo, not per pod set
                assertThat(ps.template().getMetadata().getLabels()).containsEntry(WellKnown.POD_SET, ps.name());
            }
        });

        // evicted: held again the same way (first write), then templates as they were (second write)
        stopPolicy(ns + "-cq", StopPolicy.HoldAndDrain);
        Workload evicted = cluster.awaitWorkload(created, w -> Cluster.isTrue(w, "Evicted"));
        assertThat(Cluster.condition(evicted, "Evicted").getReason()).isEqualTo("ClusterQueueStopped");
        GenericKubernetesResource heldAgain = awaitJob(kind, ns, j -> holds(j).equals(holds) && !JobSync.stopping(j));
        assertThat(kind.isSuspended(heldAgain)).isTrue();
        assertThat(kind.podSets(heldAgain)).isEqualTo(expected);
        cluster.awaitWorkload(created, w -> !Cluster.isTrue(w, "QuotaReserved"));

        // admitted again, then finished by the kind's own controller
        stopPolicy(ns + "-cq", StopPolicy.None);
        cluster.awaitWorkload(created, Cluster::admitted);
        awaitJob(kind, ns, j -> released(j, holds));
        finish(kind, ns, created.getMetadata().getName());
        Workload finished = cluster.awaitWorkload(created, w -> Cluster.isTrue(w, "Finished"));
        assertThat(Cluster.condition(finished, "Finished").getReason()).isEqualTo("Succeeded");
    }

    @Test
    void heldTheAckWayWithoutLocalQueueDefaultWaitsForOne() {
        String ns = "ack-no-default";
        cluster.namespace(ns);
        client.resource(Queues.cpuQueue(ns + "-cq", FLAVOR, "10", "{}")).create();
        GenericKubernetesResource job = seed("job-queued.yaml", ns);
        JobKind kind = KINDS.forJob(job).orElseThrow();
        GenericKubernetesResource created = jobs(kind, ns).resource(job).create();

        await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(created).stream()
                .anyMatch(e -> "NoDefaultLocalQueue".equals(e.getReason())));
        var event = cluster.events(created).stream().filter(e -> "NoDefaultLocalQueue".equals(e.getReason())).findFirst()
                .orElseThrow();
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getMessage()).contains("create LocalQueue default in " + ns).contains(WellKnown.QUEUE_NAME);
        assertThat(cluster.workloadOf(created)).isNull();
        assertThat(kind.isSuspended(jobs(kind, ns).withName(created.getMetadata().getName()).get())).isTrue();

        client.resource(Queues.localQueue(ns, "default", ns + "-cq")).create();
        Workload wl = cluster.awaitWorkload(created, Cluster::admitted);
        assertThat(wl.getSpec().getQueueName()).isEqualTo("default");
        awaitJob(kind, ns, j -> !kind.isSuspended(j));
    }

    @Test
    void workflowWithoutMinResourcesIsInadmissibleUntilFixed() {
        String ns = "ack-argo-bad";
        queues(ns, "default");
        GenericKubernetesResource job = seed("argo-workflow-queued.yaml", ns);
        String minResources = job.getMetadata().getAnnotations().remove(WellKnown.ACK_MIN_RESOURCES);
        JobKind kind = KINDS.forJob(job).orElseThrow();
        GenericKubernetesResource created = jobs(kind, ns).resource(job).create();

        Workload wl = cluster.awaitWorkload(created, w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured"));
        assertThat(Cluster.condition(wl, "QuotaReserved").getMessage()).contains("kube-queue/min-resources")
                .contains("is missing");
        assertThat(wl.getSpec().getQueueName()).isEqualTo("default");
        assertThat(kind.isSuspended(jobs(kind, ns).withName(created.getMetadata().getName()).get())).isTrue();
        assertThat(Cluster.admitted(cluster.workloadOf(created))).isFalse();

        // a garbled annotation: still not admitted, the message says why
        jobs(kind, ns).withName(created.getMetadata().getName()).edit(w -> {
            w.getMetadata().getAnnotations().put(WellKnown.ACK_MIN_RESOURCES, "[not, a, resource, list]");
            return w;
        });
        Workload garbled = cluster.awaitWorkload(created, w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured")
                && Cluster.condition(w, "QuotaReserved").getMessage().contains("is not a ResourceList"));
        assertThat(Cluster.condition(garbled, "QuotaReserved").getMessage()).contains("kube-queue/min-resources");
        assertThat(kind.isSuspended(jobs(kind, ns).withName(created.getMetadata().getName()).get())).isTrue();
        // fixed: the Workload is replaced and admitted, the Workflow released
        jobs(kind, ns).withName(created.getMetadata().getName()).edit(w -> {
            w.getMetadata().getAnnotations().put(WellKnown.ACK_MIN_RESOURCES, minResources);
            return w;
        });
        Workload admitted = cluster.awaitWorkload(created, Cluster::admitted);
        assertThat(admitted.getStatus().getAdmission().getPodSetAssignments()).singleElement()
                .satisfies(a -> assertThat(PodDemand.amount(a.getResourceUsage().get("cpu"), "cpu")).isEqualByComparingTo("5"));
        awaitJob(kind, ns, j -> !kind.isSuspended(j));
    }

    @Test
    void aKindIsServedOnceItsCrdIsInstalled() {
        JobKind tf = KINDS.all().stream().filter(k -> k.integrationName().equals("tfjob")).findFirst().orElseThrow();
        JobKind elsewhere = new DelegatingKind(tf) {
            @Override
            public String group() {
                return "training.example.com";
            }
        };
        assertThat(ClusterCache.served(client, tf)).isTrue();
        assertThat(ClusterCache.served(client, KINDS.forApiVersionKind("batch/v1", "Job").orElseThrow())).isTrue();
        assertThat(ClusterCache.served(client, elsewhere)).as("no CRD for training.example.com").isFalse();
        cluster.registerCrd(elsewhere);
        assertThat(ClusterCache.served(client, elsewhere)).isTrue();
    }

    /** A kind like another, to give it a group no CRD serves. */
    private static class DelegatingKind implements JobKind {
        private final JobKind d;

        DelegatingKind(JobKind d) {
            this.d = d;
        }

        @Override
        public String group() {
            return d.group();
        }

        @Override
        public String version() {
            return d.version();
        }

        @Override
        public String kind() {
            return d.kind();
        }

        @Override
        public String plural() {
            return d.plural();
        }

        @Override
        public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
            return d.podSets(job);
        }

        @Override
        public boolean isSuspended(GenericKubernetesResource job) {
            return d.isSuspended(job);
        }

        @Override
        public void hold(GenericKubernetesResource job) {
            d.hold(job);
        }

        @Override
        public void start(GenericKubernetesResource job, List<dev.sluice.jobs.PodSetStart> starts) {
            d.start(job, starts);
        }

        @Override
        public void restore(GenericKubernetesResource job, List<PodSetTemplate> originals) {
            d.restore(job, originals);
        }

        @Override
        public java.util.Optional<dev.sluice.jobs.JobFinish> finished(GenericKubernetesResource job) {
            return d.finished(job);
        }

        @Override
        public boolean isActive(GenericKubernetesResource job) {
            return d.isActive(job);
        }

        @Override
        public boolean podsReady(GenericKubernetesResource job) {
            return d.podsReady(job);
        }
    }

    // ---- helpers ----

    private void queues(String ns, String localQueue) {
        cluster.namespace(ns);
        client.resource(Queues.yaml(ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s-cq}
                spec:
                  namespaceSelector: {}
                  resourceGroups:
                  - coveredResources: [cpu, memory, nvidia.com/gpu]
                    flavors:
                    - name: %s
                      resources:
                      - {name: cpu, nominalQuota: "100"}
                      - {name: memory, nominalQuota: 1000Gi}
                      - {name: nvidia.com/gpu, nominalQuota: "100"}
                """.formatted(ns, FLAVOR))).create();
        client.resource(Queues.localQueue(ns, localQueue, ns + "-cq")).create();
    }

    private void stopPolicy(String clusterQueue, StopPolicy policy) {
        // a merge patch without resourceVersion: the controller writes the status meanwhile
        client.resources(ClusterQueue.class).withName(clusterQueue).patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                "{\"spec\": {\"stopPolicy\": \"" + policy + "\"}}");
    }

    private GenericKubernetesResource seed(String file, String ns) {
        try (InputStream in = getClass().getResourceAsStream("/seeds/ack-kube-queue/" + file)) {
            GenericKubernetesResource job = Serialization.unmarshal(in, GenericKubernetesResource.class);
            job.getMetadata().setName(job.getMetadata().getName() != null ? job.getMetadata().getName() : "seed");
            job.getMetadata().setGenerateName(null);
            job.getMetadata().setNamespace(ns);
            return job;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Resource<GenericKubernetesResource> job(JobKind kind, String ns, String name) {
        return jobs(kind, ns).withName(name);
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList, Resource<GenericKubernetesResource>> jobs(
            JobKind kind, String ns) {
        return client.genericKubernetesResources(ClusterCache.context(kind)).inNamespace(ns);
    }

    private GenericKubernetesResource awaitJob(JobKind kind, String ns, Predicate<GenericKubernetesResource> condition) {
        return await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(50))
                .until(() -> jobs(kind, ns).list().getItems().stream().findFirst().orElse(null),
                        j -> j != null && condition.test(j));
    }

    /** The seed without any hold (as a user would write it for the label way). */
    @SuppressWarnings("unchecked")
    private static void unhold(GenericKubernetesResource job) {
        if (job.getMetadata().getAnnotations() != null) {
            job.getMetadata().getAnnotations().remove(WellKnown.ACK_SUSPEND);
        }
        Map<String, Object> spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
        spec.remove("suspend");
        Object runPolicy = spec.get("runPolicy");
        if (runPolicy instanceof Map<?, ?> rp) {
            ((Map<String, Object>) rp).remove("suspend");
        }
    }

    /** Where the job is held or released: the ack annotation, spec.suspend, spec.runPolicy.suspend, with values. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> holds(GenericKubernetesResource job) {
        Map<String, Object> found = new LinkedHashMap<>();
        var annotations = job.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(WellKnown.ACK_SUSPEND)) {
            found.put("annotation", annotations.get(WellKnown.ACK_SUSPEND));
        }
        Map<String, Object> spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
        if (spec.get("suspend") != null) {
            found.put("spec.suspend", spec.get("suspend"));
        }
        if (spec.get("runPolicy") instanceof Map<?, ?> rp && rp.get("suspend") != null) {
            found.put("spec.runPolicy.suspend", rp.get("suspend"));
        }
        return found;
    }

    /** Every place that held the job now says released ("false" / false), and nothing else holds it. */
    private static boolean released(GenericKubernetesResource job, Map<String, Object> heldAt) {
        Map<String, Object> now = holds(job);
        Map<String, Object> want = new LinkedHashMap<>();
        heldAt.forEach((where, value) -> want.put(where, value instanceof String ? "false" : Boolean.FALSE));
        return now.equals(want);
    }

    /** Plays the kind's controller: the terminal status its adapter reads. */
    private void finish(JobKind kind, String ns, String name) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        Map<String, Object> status = switch (kind.integrationName()) {
            case "job" -> Map.of("conditions", List.of(Map.of("type", "Complete", "status", "True", "lastTransitionTime", now)));
            case "tfjob", "pytorchjob", "mpijob" -> Map.of("conditions", List.of(
                    Map.of("type", "Succeeded", "status", "True", "reason", "JobSucceeded", "lastTransitionTime", now)));
            case "rayjob" -> Map.of("jobDeploymentStatus", "Complete", "jobStatus", "SUCCEEDED");
            case "sparkapplication" -> Map.of("applicationState", Map.of("state", "COMPLETED"));
            case "workflow" -> Map.of("phase", "Succeeded");
            default -> throw new IllegalArgumentException(kind.kind());
        };
        job(kind, ns, name).editStatus(j -> {
            j.getAdditionalProperties().put("status", new HashMap<>(status));
            return j;
        });
    }
}
