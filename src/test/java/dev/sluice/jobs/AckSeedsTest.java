package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The ack-kube-queue seed manifests: pod sets and demand, held the ack way, released and held again the same way. */
class AckSeedsTest {
    private static final BigDecimal GI = new BigDecimal(1L << 30);
    private static final BigDecimal MI = new BigDecimal(1L << 20);
    private static final Toleration GPU = new TolerationBuilder()
            .withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").build();

    private final JobKinds kinds = JobKinds.standard();

    private static Map<String, BigDecimal> demand(PodSetTemplate ps) {
        return PodDemand.of(ps.template().getSpec());
    }

    private JobKind kindOf(GenericKubernetesResource job) {
        return kinds.forJob(job).orElseThrow();
    }

    @Test
    void tfJobHasPsAndWorkers() {
        GenericKubernetesResource job = Manifests.ackSeed("tfjob-queued.yaml");
        JobKind kind = kindOf(job);
        assertThat(kind).isInstanceOf(TFJobKind.class);
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count, PodSetTemplate::minCount)
                .containsExactly(tuple("ps", 1, null), tuple("worker", 2, null));
        assertThat(demand(podSets.get(0))).containsExactly(Map.entry("cpu", BigDecimal.ONE), Map.entry("memory", GI));
        assertThat(demand(podSets.get(1))).containsExactly(Map.entry("cpu", new BigDecimal(2)),
                Map.entry("memory", GI.multiply(new BigDecimal(2))), Map.entry("nvidia.com/gpu", BigDecimal.ONE));
    }

    @Test
    void pyTorchJobHasMasterThenWorkers() {
        GenericKubernetesResource job = Manifests.ackSeed("pytorchjob-queued.yaml");
        JobKind kind = kindOf(job);
        assertThat(kind).isInstanceOf(PyTorchJobKind.class);
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("master", 1), tuple("worker", 3));
        podSets.forEach(ps -> assertThat(demand(ps))
                .containsExactly(Map.entry("cpu", BigDecimal.ONE), Map.entry("memory", GI)));
    }

    @Test
    void mpiJobHasLauncherThenWorkers() {
        GenericKubernetesResource job = Manifests.ackSeed("mpijob-queued.yaml");
        JobKind kind = kindOf(job);
        assertThat(kind).isInstanceOf(MPIJobKind.class);
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("launcher", 1), tuple("worker", 2));
        assertThat(demand(podSets.get(0))).containsExactly(Map.entry("cpu", BigDecimal.ONE), Map.entry("memory", GI));
        assertThat(demand(podSets.get(1))).containsExactly(Map.entry("cpu", new BigDecimal(2)),
                Map.entry("memory", GI.multiply(new BigDecimal(4))), Map.entry("nvidia.com/gpu", BigDecimal.ONE));
    }

    @Test
    void rayJobHasHeadAndSmallGroupWithMinCount() {
        GenericKubernetesResource job = Manifests.ackSeed("rayjob-queued.yaml");
        JobKind kind = kindOf(job);
        assertThat(kind).isInstanceOf(RayJobKind.class);
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count, PodSetTemplate::minCount)
                .containsExactly(tuple("head", 1, null), tuple("small-group", 2, 1));
        assertThat(demand(podSets.get(0))).containsExactly(Map.entry("cpu", BigDecimal.ONE),
                Map.entry("memory", GI.multiply(new BigDecimal(2))));
        assertThat(demand(podSets.get(1))).containsExactly(Map.entry("cpu", BigDecimal.ONE), Map.entry("memory", GI));
    }

    @Test
    void sparkApplicationHasDriverAndTwoExecutorsWithSparksMemoryOverhead() {
        GenericKubernetesResource job = Manifests.ackSeed("spark-queued.yaml");
        JobKind kind = kindOf(job);
        assertThat(kind).isInstanceOf(SparkApplicationKind.class);
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("driver", 1), tuple("executor", 2));
        // memory 512m + max(10% of 512m, 384Mi) = 896Mi (Scala is a JVM application)
        podSets.forEach(ps -> assertThat(demand(ps)).containsExactly(Map.entry("cpu", BigDecimal.ONE),
                Map.entry("memory", MI.multiply(new BigDecimal(896)))));
        assertThat(podSets.get(0).template().getSpec().getContainers().get(0).getImage()).isEqualTo("apache/spark:3.5.0");
    }

    @Test
    void argoWorkflowIsOneMainPodSetOfItsMinResources() {
        GenericKubernetesResource job = Manifests.ackSeed("argo-workflow-queued.yaml");
        JobKind kind = kindOf(job);
        assertThat(kind).isInstanceOf(ArgoWorkflowKind.class);
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("main", 1));
        // the annotation, not the step's 1 cpu / 1Gi
        assertThat(demand(podSets.get(0))).containsExactly(Map.entry("cpu", new BigDecimal(5)),
                Map.entry("memory", new BigDecimal(5_000_000_000L)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tfjob-queued.yaml", "pytorchjob-queued.yaml", "mpijob-queued.yaml", "rayjob-queued.yaml",
        "spark-queued.yaml", "argo-workflow-queued.yaml", "job-queued.yaml"})
    void heldTheAckWayOnlyWithoutQueueLabelAndWhileHeld(String file) {
        GenericKubernetesResource job = Manifests.ackSeed(file);
        JobKind kind = kindOf(job);
        assertThat(kind.isSuspended(job)).isTrue();
        assertThat(kind.heldTheAckWay(job)).isTrue();

        GenericKubernetesResource labelled = Manifests.copy(job);
        labelled.getMetadata().setLabels(new HashMap<>(Map.of(WellKnown.QUEUE_NAME, "user-queue")));
        assertThat(kind.heldTheAckWay(labelled)).isFalse();

        GenericKubernetesResource started = Manifests.copy(job);
        kind.start(started, starts(kind, started, Map.of(), List.of()));
        assertThat(kind.isSuspended(started)).isFalse();
        assertThat(kind.heldTheAckWay(started)).isFalse();
    }

    @Test
    void childObjectsOfAnOwnerAreNotHeldTheAckWay() {
        GenericKubernetesResource job = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: multislice-1slice-slice-0
                  ownerReferences:
                  - {apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: multislice-1slice, uid: u1, controller: true}
                spec:
                  suspend: true
                  template: {spec: {containers: [{name: c}]}}
                """);
        assertThat(kindOf(job).isSuspended(job)).isTrue();
        assertThat(kindOf(job).heldTheAckWay(job)).isFalse();
    }

    @Test
    void argoWithoutTheSuspendTemplateIsNotHeldTheAckWay() {
        GenericKubernetesResource wf = Manifests.ackSeed("argo-workflow-queued.yaml");
        List<Object> templates = wf.get("spec", "templates");
        templates.remove(0);
        assertThat(kindOf(wf).isSuspended(wf)).isTrue();
        assertThat(kindOf(wf).heldTheAckWay(wf)).isFalse();
    }

    @Test
    void annotationHeldKindsAreReleasedBySettingTheAnnotationFalseAndHeldAgainByIt() {
        for (String file : List.of("tfjob-queued.yaml", "mpijob-queued.yaml", "spark-queued.yaml")) {
            GenericKubernetesResource job = Manifests.ackSeed(file);
            JobKind kind = kindOf(job);
            GenericKubernetesResource held = Manifests.copy(job);
            List<PodSetTemplate> originals = kind.podSets(job);

            kind.start(job, starts(kind, job, Map.of("pool", "gpu-a"), List.of(GPU)));
            assertThat(job.getMetadata().getAnnotations()).containsEntry(WellKnown.ACK_SUSPEND, "false");
            assertThat(kind.isSuspended(job)).isFalse();
            // released by the annotation only: no suspend field appears
            assertThat(Manifests.JSON.valueToTree(job).toString()).doesNotContain("\"suspend\"");
            assertThat(kind.podSets(job)).allSatisfy(ps -> {
                assertThat(ps.template().getSpec().getNodeSelector()).containsEntry("pool", "gpu-a");
                assertThat(ps.template().getSpec().getTolerations()).contains(GPU);
                assertThat(ps.template().getMetadata().getLabels()).containsEntry(WellKnown.POD_SET, ps.name());
            });

            kind.restore(job, originals);
            assertThat(job.getMetadata().getAnnotations()).containsEntry(WellKnown.ACK_SUSPEND, "true");
            assertThat(kind.isSuspended(job)).isTrue();
            assertThat(kind.podSets(job)).isEqualTo(originals);
            assertThat(canonical(job)).as(file).isEqualTo(canonical(held));
        }
    }

    @Test
    void fieldHeldKindsAreReleasedByTheFieldAndHeldAgainByIt() {
        Map<String, List<String>> fields = Map.of(
                "pytorchjob-queued.yaml", List.of("spec", "runPolicy"),
                "rayjob-queued.yaml", List.of("spec"),
                "argo-workflow-queued.yaml", List.of("spec"),
                "job-queued.yaml", List.of("spec"));
        fields.forEach((file, parent) -> {
            GenericKubernetesResource job = Manifests.ackSeed(file);
            JobKind kind = kindOf(job);
            GenericKubernetesResource held = Manifests.copy(job);
            List<PodSetTemplate> originals = kind.podSets(job);

            kind.start(job, starts(kind, job, Map.of("pool", "gpu-a"), List.of(GPU)));
            assertThat(suspendField(job, parent)).as(file).isEqualTo(false);
            assertThat(job.getMetadata().getAnnotations()).as(file).doesNotContainKey(WellKnown.ACK_SUSPEND);
            assertThat(kind.podSets(job)).allSatisfy(ps -> {
                assertThat(ps.template().getSpec().getNodeSelector()).containsEntry("pool", "gpu-a");
                assertThat(ps.template().getSpec().getTolerations()).contains(GPU);
            });

            kind.restore(job, originals);
            assertThat(suspendField(job, parent)).as(file).isEqualTo(true);
            assertThat(job.getMetadata().getAnnotations()).as(file).doesNotContainKey(WellKnown.ACK_SUSPEND);
            assertThat(kind.podSets(job)).as(file).isEqualTo(originals);
            assertThat(canonical(job)).as(file).isEqualTo(canonical(held));
        });
    }

    /** One start per pod set, all with the same flavor. */
    static List<PodSetStart> starts(JobKind kind, GenericKubernetesResource job, Map<String, String> labels,
            List<Toleration> tolerations) {
        return kind.podSets(job).stream().map(ps -> new PodSetStart(ps.name(), labels, tolerations, null)).toList();
    }

    static Object suspendField(GenericKubernetesResource job, List<String> parent) {
        Object node = job.getAdditionalProperties();
        for (String key : parent) {
            node = ((Map<?, ?>) node).get(key);
        }
        return ((Map<?, ?>) node).get("suspend");
    }

    /**
     * The object as a JSON tree (key order does not count), with whole-number quantities written as strings, the
     * form the restore writes them in (see JobKind.restore).
     */
    static JsonNode canonical(GenericKubernetesResource job) {
        String json = Manifests.JSON.valueToTree(job).toString()
                .replaceAll("\"(cpu|nvidia.com/gpu|memory)\":(\\d+)", "\"$1\":\"$2\"");
        try {
            return Manifests.JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
