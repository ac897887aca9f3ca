package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Starting an admitted job and restoring it after eviction, on the seed JobSets and a Job. */
class StartRestoreTest {
    private static final Map<String, String> VLP24 = Map.of(
            "cloud.google.com/gke-tpu-accelerator", "tpu-v5-lite-podslice",
            "cloud.google.com/gke-tpu-topology", "2x4");
    private static final Toleration TPU = new TolerationBuilder()
            .withKey("google.com/tpu").withOperator("Exists").withEffect("NoSchedule").build();
    private static final Toleration SPOT = new TolerationBuilder()
            .withKey("cloud.google.com/gke-spot").withOperator("Equal").withValue("true").withEffect("NoSchedule")
            .build();

    private final JobKinds kinds = JobKinds.standard();

    @Test
    void startMergesFlavorIntoTemplateAndUnsuspends() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-standard.yaml", "multislice-3slice");
        JobKind kind = kinds.forJob(js).orElseThrow();
        kind.hold(js);
        Map<String, String> flavorLabels = Map.of(
                "cloud.google.com/gke-tpu-topology", "2x4", "pool", "tpu-a");
        kind.start(js, List.of(new PodSetStart("slice", flavorLabels, List.of(TPU, SPOT), null)));

        assertThat(kind.isSuspended(js)).isFalse();
        PodSetTemplate started = kind.podSets(js).get(0);
        PodSpec spec = started.template().getSpec();
        assertThat(spec.getNodeSelector()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cloud.google.com/gke-tpu-accelerator", "tpu-v5-lite-podslice",
                "cloud.google.com/gke-tpu-topology", "2x4",
                "pool", "tpu-a"));
        assertThat(spec.getTolerations()).containsExactly(TPU, SPOT);
        assertThat(started.template().getMetadata().getLabels()).containsEntry(WellKnown.POD_SET, "slice");
        assertThat(started.count()).isEqualTo(6);
        // the rest of the template is untouched
        assertThat(spec.getHostNetwork()).isTrue();
        assertThat(spec.getContainers().get(0).getSecurityContext().getPrivileged()).isTrue();
    }

    @Test
    void startDoesNotDuplicateTolerations() {
        GenericKubernetesResource job = Manifests.load("job-queued.yaml").get(0);
        JobKind kind = kinds.forJob(job).orElseThrow();
        kind.start(job, List.of(new PodSetStart("main", Map.of(), List.of(TPU), null)));
        kind.hold(job);
        kind.start(job, List.of(new PodSetStart("main", Map.of(), List.of(TPU, TPU, SPOT), null)));
        assertThat(kind.podSets(job).get(0).template().getSpec().getTolerations()).containsExactly(TPU, SPOT);
    }

    @Test
    void restoreAfterStartGivesBackTheExactOriginal() throws Exception {
        for (GenericKubernetesResource js : Manifests.load("jobsets-multislice-autopilot.yaml")) {
            JobKind kind = kinds.forJob(js).orElseThrow();
            GenericKubernetesResource pristine = Manifests.copy(js);
            kind.hold(js);
            List<PodSetTemplate> originals = kind.podSets(js);

            kind.start(js, List.of(new PodSetStart("slice", Map.of("pool", "a"), List.of(TPU), null)));
            assertThat(kind.podSets(js)).isNotEqualTo(originals);
            kind.restore(js, originals);

            assertThat(kind.isSuspended(js)).isTrue();
            assertThat(kind.podSets(js)).isEqualTo(originals);
            // the template is written back in canonical form (quantity 4 becomes "4"), same meaning:
            assertThat(Manifests.JSON.writeValueAsString(js.get("spec", "replicatedJobs", 0, "template", "spec",
                    "template"))).contains("\"google.com/tpu\":\"4\"");
            // apart from spec.suspend and that, the object is the one submitted
            Map<String, Object> spec = js.get("spec");
            spec.remove("suspend");
            Map<String, Object> jobTemplateSpec = js.get("spec", "replicatedJobs", 0, "template", "spec");
            Map<String, Object> pristineJobTemplateSpec = pristine.get("spec", "replicatedJobs", 0, "template", "spec");
            jobTemplateSpec.remove("template");
            pristineJobTemplateSpec.remove("template");
            assertThat((Object) Manifests.JSON.valueToTree(js)).isEqualTo(Manifests.JSON.valueToTree(pristine));
        }
    }

    @Test
    void conflictingNodeSelectorFailsAndLeavesTheJobUntouched() {
        GenericKubernetesResource js = Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: two, namespace: ml}
                spec:
                  suspend: true
                  replicatedJobs:
                  - name: driver
                    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
                  - name: workers
                    replicas: 2
                    template:
                      spec:
                        parallelism: 3
                        template:
                          spec:
                            nodeSelector: {cloud.google.com/gke-tpu-topology: 4x4}
                            containers: [{name: c}]
                """);
        JobKind kind = kinds.forJob(js).orElseThrow();
        assertThat(kind.podSets(js)).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("driver", 1),
                        org.assertj.core.groups.Tuple.tuple("workers", 6));
        GenericKubernetesResource before = Manifests.copy(js);

        assertThatThrownBy(() -> kind.start(js, List.of(
                new PodSetStart("driver", VLP24, List.of(TPU), null),
                new PodSetStart("workers", VLP24, List.of(TPU), null))))
                .isInstanceOfSatisfying(StartConflictException.class, e -> {
                    assertThat(e.podSet()).isEqualTo("workers");
                    assertThat(e.key()).isEqualTo("cloud.google.com/gke-tpu-topology");
                    assertThat(e.existingValue()).isEqualTo("4x4");
                    assertThat(e.flavorValue()).isEqualTo("2x4");
                })
                .hasMessageContaining("pod set workers")
                .hasMessageContaining("4x4").hasMessageContaining("2x4");
        assertThat((Object) Manifests.JSON.valueToTree(js)).isEqualTo(Manifests.JSON.valueToTree(before));
    }

    @Test
    void sameValueInNodeSelectorIsNoConflict() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-1slice");
        JobKind kind = kinds.forJob(js).orElseThrow();
        kind.start(js, List.of(new PodSetStart("slice", VLP24, List.of(), null)));
        assertThat(kind.podSets(js).get(0).template().getSpec().getNodeSelector()).isEqualTo(VLP24);
    }

    @Test
    void startsMustNameExactlyThePodSets() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-1slice");
        JobKind kind = kinds.forJob(js).orElseThrow();
        assertThatThrownBy(() -> kind.start(js, List.of(new PodSetStart("main", Map.of(), List.of(), null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[slice]").hasMessageContaining("[main]");
        assertThatThrownBy(() -> kind.start(js, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> kind.restore(js, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void partialAdmissionLowersJobParallelismAndRestoreRaisesIt() {
        GenericKubernetesResource job = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: wide}
                spec:
                  suspend: true
                  parallelism: 8
                  template: {spec: {containers: [{name: c}]}}
                """);
        JobKind kind = kinds.forJob(job).orElseThrow();
        List<PodSetTemplate> originals = kind.podSets(job);
        kind.start(job, List.of(new PodSetStart("main", Map.of(), List.of(), 5)));
        assertThat(kind.podSets(job).get(0).count()).isEqualTo(5);
        assertThat(job.<Integer>get("spec", "parallelism")).isEqualTo(5);
        kind.restore(job, originals);
        assertThat(kind.podSets(job)).isEqualTo(originals);
        assertThat(job.<Integer>get("spec", "parallelism")).isEqualTo(8);
        assertThatThrownBy(() -> kind.start(job, List.of(new PodSetStart("main", Map.of(), List.of(), 9))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than its 8");
    }

    @Test
    void jobSetRefusesPartialAdmission() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-2slice");
        JobKind kind = kinds.forJob(js).orElseThrow();
        assertThatThrownBy(() -> kind.start(js, List.of(new PodSetStart("slice", Map.of(), List.of(), 2))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partial admission");
        // the full count is fine
        kind.start(js, List.of(new PodSetStart("slice", Map.of(), List.of(), 4)));
        assertThat(kind.isSuspended(js)).isFalse();
    }
}
