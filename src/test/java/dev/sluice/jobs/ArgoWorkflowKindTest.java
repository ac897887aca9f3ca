package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArgoWorkflowKindTest {
    private static final Toleration GPU = new TolerationBuilder()
            .withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").build();
    private final ArgoWorkflowKind kind = new ArgoWorkflowKind();

    private static GenericKubernetesResource workflow(String annotations, String specExtra) {
        return Manifests.parse("""
                apiVersion: argoproj.io/v1alpha1
                kind: Workflow
                metadata:
                  name: wf
                  namespace: ml
                %s
                spec:
                  suspend: true
                  entrypoint: main
                %s
                  templates:
                  - name: kube-queue-suspend
                    suspend: {}
                  - name: main
                    container: {image: busybox}
                  - name: on-gpu
                    nodeSelector: {accelerator: a100}
                    tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]
                    container: {image: busybox}
                """.formatted(annotations, specExtra));
    }

    @Test
    void aWorkflowWithoutStatusPhaseHasNotFinished() {
        GenericKubernetesResource wf = workflow("", "");
        assertThat(kind.finished(wf)).isEmpty();
        wf.setAdditionalProperty("status", new java.util.HashMap<>(java.util.Map.of("nodes", java.util.Map.of())));
        assertThat(kind.finished(wf)).as("status without phase, as Argo writes it first").isEmpty();
    }

    @Test
    void withoutMinResourcesItIsNotAdmitted() {
        assertThatThrownBy(() -> kind.podSets(workflow("", "")))
                .isInstanceOfSatisfying(InvalidJobException.class, e -> {
                    assertThat(e.field()).isEqualTo("metadata.annotations[kube-queue/min-resources]");
                    assertThat(e.job()).isEqualTo("Workflow ml/wf");
                })
                .hasMessageContaining("is missing")
                .hasMessageContaining("annotate the Workflow with kube-queue/min-resources");
    }

    @ParameterizedTest
    @ValueSource(strings = {"'cpu: [1, 2]'", "'just words'", "'cpu: lots'", "'memory: -1Gi'", "'{cpu: '"})
    void unparsableMinResourcesNamesTheAnnotationAndTheFix(String value) {
        GenericKubernetesResource wf = workflow("  annotations: {kube-queue/min-resources: " + value + "}", "");
        assertThatThrownBy(() -> kind.podSets(wf))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("metadata.annotations[kube-queue/min-resources]")
                .hasMessageContaining("as a ResourceList such as");
    }

    @Test
    void minResourcesMayBeJsonAndWorkflowSchedulingIsInTheTemplate() {
        GenericKubernetesResource wf = workflow(
                "  annotations: {kube-queue/min-resources: '{\"cpu\": \"2500m\", \"nvidia.com/gpu\": 2}'}",
                "  nodeSelector: {zone: a}\n  podPriorityClassName: high\n");
        PodSetTemplate ps = kind.podSets(wf).get(0);
        assertThat(PodDemand.of(ps.template().getSpec())).containsExactly(
                Map.entry("cpu", new BigDecimal("2.5")), Map.entry("nvidia.com/gpu", new BigDecimal(2)));
        assertThat(ps.template().getSpec().getNodeSelector()).containsExactly(Map.entry("zone", "a"));
        assertThat(kind.priorityClassName(wf)).contains("high");
    }

    @Test
    void startReachesTemplatesWithTheirOwnSchedulingAndRestorePutsThemBack() {
        GenericKubernetesResource wf = workflow("  annotations: {kube-queue/min-resources: 'cpu: 1'}", "");
        GenericKubernetesResource held = Manifests.copy(wf);
        List<PodSetTemplate> originals = kind.podSets(wf);

        kind.start(wf, List.of(new PodSetStart("main", Map.of("pool", "gpu"), List.of(GPU), null)));
        assertThat(wf.<Boolean>get("spec", "suspend")).isFalse();
        assertThat(wf.<Map<String, Object>>get("spec", "nodeSelector")).containsExactly(Map.entry("pool", "gpu"));
        // Argo uses a template's own nodeSelector/tolerations instead of the workflow's: the flavor goes there too
        assertThat(wf.<Map<String, Object>>get("spec", "templates", 2, "nodeSelector"))
                .containsEntry("accelerator", "a100").containsEntry("pool", "gpu");
        assertThat(wf.<List<Object>>get("spec", "templates", 2, "tolerations")).hasSize(2);
        assertThat(wf.<Map<String, Object>>get("spec", "templates", 1)).doesNotContainKey("nodeSelector");
        assertThat(wf.getMetadata().getAnnotations()).containsKey(WellKnown.ARGO_TEMPLATE_SCHEDULING);

        kind.restore(wf, originals);
        assertThat(AckSeedsTest.canonical(wf)).isEqualTo(AckSeedsTest.canonical(held));
    }

    @Test
    void templateNodeSelectorConflictFailsAndChangesNothing() {
        GenericKubernetesResource wf = workflow("  annotations: {kube-queue/min-resources: 'cpu: 1'}", "");
        GenericKubernetesResource before = Manifests.copy(wf);
        assertThatThrownBy(() -> kind.start(wf, List.of(
                new PodSetStart("main", Map.of("accelerator", "h100"), List.of(), null))))
                .isInstanceOfSatisfying(StartConflictException.class,
                        e -> assertThat(e.existingValue()).isEqualTo("a100"));
        assertThat(AckSeedsTest.canonical(wf)).isEqualTo(AckSeedsTest.canonical(before));
    }
}
