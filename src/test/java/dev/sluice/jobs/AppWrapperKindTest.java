package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AppWrapper ({@code workload.codeflare.dev/v1beta2}): the cases of Kueue v0.19.2's {@code appwrapper_controller_test.go}
 * that test pod sets, naming and suspend/run/restore, under their names, and the AppWrapper project's pod-set
 * inference and paths (v1.2.1 {@code pkg/utils}) that Kueue's pod sets come from.
 */
class AppWrapperKindTest {
    private final AppWrapperKind kind = new AppWrapperKind();

    private static GenericKubernetesResource aw() {
        return Manifests.load("appwrapper.yaml").get(0);
    }

    @Test
    void podSets_noAnnotations() {
        // Kueue's case: a PyTorchJob (master 1, workers 4) and a batch Job of parallelism 2, both inferred
        GenericKubernetesResource aw = Manifests.parse("""
                apiVersion: workload.codeflare.dev/v1beta2
                kind: AppWrapper
                metadata: {name: aw, namespace: ns}
                spec:
                  components:
                  - template:
                      apiVersion: kubeflow.org/v1
                      kind: PyTorchJob
                      spec:
                        pytorchReplicaSpecs:
                          Master: {replicas: 1, template: {spec: {containers: [{name: m}]}}}
                          Worker: {replicas: 4, template: {spec: {containers: [{name: w}]}}}
                  - template:
                      apiVersion: batch/v1
                      kind: Job
                      spec: {parallelism: 2, template: {spec: {containers: [{name: j}]}}}
                """);
        assertThat(kind.podSets(aw)).extracting(PodSetTemplate::name, PodSetTemplate::count, PodSetTemplate::minCount)
                .containsExactly(tuple("aw-0", 1, null), tuple("aw-1", 4, null), tuple("aw-2", 2, null));
        assertThat(kind.podSets(aw).get(1).template().getSpec().getContainers().get(0).getName()).isEqualTo("w");
    }

    @Test
    void declaredPodSetsWinOverInferenceAndTheStatusOverBoth() {
        GenericKubernetesResource aw = aw();
        assertThat(kind.podSets(aw)).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("aw-sample-0", 1), tuple("aw-sample-1", 2), tuple("aw-sample-2", 2));
        assertThat(kind.podSets(aw).get(2).template().getMetadata().getLabels()).containsEntry("app", "sample");
        // the AppWrapper controller's record of the pod sets, for every component: it is what counts
        aw.getAdditionalProperties().put("status", Map.of("componentStatus", List.of(
                Map.of("name", "p", "kind", "PyTorchJob", "apiVersion", "kubeflow.org/v1", "podSets", List.of(
                        Map.of("path", "template.spec.pytorchReplicaSpecs.Worker.template", "replicas", 2))),
                Map.of("name", "j", "kind", "Job", "apiVersion", "batch/v1", "podSets", List.of(
                        Map.of("path", "template.spec.template", "replicas", 1))))));
        assertThat(kind.podSets(aw)).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("aw-sample-0", 2), tuple("aw-sample-1", 1));
    }

    @Test
    void moreThanAWorkloadsPodSetsIsInvalid() {
        GenericKubernetesResource aw = aw();
        aw.<Map<String, Object>>get("spec", "components", 1, "podSets", 0).put("path", "template.spec.template");
        List<Object> declared = aw.get("spec", "components", 1, "podSets");
        for (int i = 0; i < 5; i++) {
            declared.add(Map.of("path", "template.spec.template"));
        }
        assertThat(kind.podSets(aw)).hasSize(8);
        declared.add(Map.of("path", "template.spec.template"));
        assertThatThrownBy(() -> kind.podSets(aw)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.components").hasMessageContaining("9 pod sets");
    }

    @Test
    void aPathThatNamesNothingIsInvalid() {
        GenericKubernetesResource aw = aw();
        aw.<Map<String, Object>>get("spec", "components", 1, "podSets", 0).put("path", "template.spec.templates");
        assertThatThrownBy(() -> kind.podSets(aw)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.components[1].podSets[0].path");
    }

    @Test
    void startWritesPodSetInfosAndLeavesTheWrappedObjectsAlone() {
        GenericKubernetesResource aw = aw();
        kind.hold(aw);
        assertThat(kind.isSuspended(aw)).isTrue();
        GenericKubernetesResource before = Manifests.copy(aw);
        List<PodSetTemplate> originals = kind.podSets(aw);
        kind.start(aw, originals.stream().map(ps -> new PodSetStart(ps.name(), Map.of("pool", "a"),
                List.of(new TolerationBuilder().withKey("spot").withOperator("Exists").build()), null)).toList());
        assertThat(kind.isSuspended(aw)).isFalse();
        assertThat(aw.<Object>get("spec", "components", 0, "template"))
                .isEqualTo(before.<Object>get("spec", "components", 0, "template"));
        assertThat(aw.<List<Map<String, Object>>>get("spec", "components", 0, "podSetInfos")).hasSize(2)
                .first().satisfies(info -> {
                    assertThat(info).containsEntry("nodeSelector", Map.of("pool", "a"))
                            .containsEntry("labels", Map.of(WellKnown.POD_SET, "aw-sample-0"));
                    assertThat(info.get("tolerations").toString()).contains("spot");
                });
        assertThat(aw.<List<Map<String, Object>>>get("spec", "components", 1, "podSetInfos")).singleElement()
                .satisfies(info -> assertThat(info).containsEntry("labels", Map.of(WellKnown.POD_SET, "aw-sample-2")));
        assertThat(kind.podSets(aw)).as("pod sets unchanged by the start").isEqualTo(originals);

        kind.restore(aw, originals);
        assertThat(kind.isSuspended(aw)).isTrue();
        assertThat(aw.<Object>get("spec", "components", 0, "podSetInfos")).isNull();
        assertThat(aw.<Object>get("spec", "components", 1, "podSetInfos")).isNull();
    }

    @Test
    void aTemplateSelectingAnotherValueIsAConflictAndNothingIsWritten() {
        GenericKubernetesResource aw = aw();
        kind.hold(aw);
        aw.<Map<String, Object>>get("spec", "components", 1, "template", "spec", "template", "spec")
                .put("nodeSelector", Map.of("pool", "b"));
        GenericKubernetesResource before = Manifests.copy(aw);
        assertThatThrownBy(() -> kind.start(aw, kind.podSets(aw).stream().map(ps -> new PodSetStart(ps.name(),
                Map.of("pool", "a"), List.of(), null)).toList())).isInstanceOf(StartConflictException.class);
        assertThat(aw).isEqualTo(before);
    }

    @Test
    void reconciler_workloadShouldntBeRecreatedForCompletedJob() {
        GenericKubernetesResource aw = aw();
        aw.getAdditionalProperties().put("status", Map.of("phase", "Succeeded"));
        assertThat(kind.finished(aw)).hasValueSatisfying(f -> assertThat(f.succeeded()).isTrue());
        aw.getAdditionalProperties().put("status", Map.of("phase", "Failed", "conditions",
                List.of(Map.of("type", "ResourcesDeployed", "status", "True"))));
        assertThat(kind.finished(aw)).as("still deleting its resources").isEmpty();
        aw.getAdditionalProperties().put("status", Map.of("phase", "Failed", "conditions",
                List.of(Map.of("type", "ResourcesDeployed", "status", "False"))));
        assertThat(kind.finished(aw)).hasValueSatisfying(f -> assertThat(f.succeeded()).isFalse());
    }

    @Test
    void activeAndReadyFromTheAppWrappersConditions() {
        GenericKubernetesResource aw = aw();
        assertThat(kind.isActive(aw)).isFalse();
        aw.getAdditionalProperties().put("status", Map.of("conditions", List.of(
                Map.of("type", "QuotaReserved", "status", "True"), Map.of("type", "PodsReady", "status", "False"))));
        assertThat(kind.isActive(aw)).isTrue();
        assertThat(kind.podsReady(aw)).isFalse();
    }

    @Test
    void inferenceForTheKindsTheAppWrapperProjectKnows() {
        Map<String, Object> jobSet = Manifests.parse("""
                apiVersion: v1
                kind: ConfigMap
                spec:
                  components:
                  - template:
                      apiVersion: jobset.x-k8s.io/v1alpha2
                      kind: JobSet
                      spec:
                        replicatedJobs:
                        - {name: w, replicas: 3, template: {spec: {parallelism: 4, completions: 2, template: {spec: {}}}}}
                """).<Map<String, Object>>get("spec", "components", 0);
        assertThat(AppWrapperPaths.infer(jobSet)).containsExactly(new AppWrapperPaths.ComponentPodSet(
                "template.spec.replicatedJobs[0].template.spec.template", 6));
        Map<String, Object> pod = Map.of("template", Map.of("apiVersion", "v1", "kind", "Pod", "spec", Map.of()));
        assertThat(AppWrapperPaths.infer(pod)).containsExactly(new AppWrapperPaths.ComponentPodSet("template", 1));
        Map<String, Object> unknown = Map.of("template", Map.of("apiVersion", "example.com/v1", "kind", "Thing"));
        assertThat(AppWrapperPaths.infer(unknown)).isEmpty();
    }
}
