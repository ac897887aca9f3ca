package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.Test;

class JobSetKindTest {
    private final JobSetKind kind = new JobSetKind();

    private static GenericKubernetesResource withStatus(String status) {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-1slice");
        js.setAdditionalProperty("status", Manifests.parse(status).getAdditionalProperties().get("status"));
        return js;
    }

    @Test
    void finishedOnCompletedOrFailedTrue() {
        assertThat(kind.finished(withStatus("status: {conditions: [{type: Suspended, status: \"True\"}]}")))
                .isEmpty();
        assertThat(kind.finished(withStatus(
                "status: {conditions: [{type: Completed, status: \"True\", reason: AllJobsCompleted, message: jobset completed successfully}]}")))
                .contains(new JobFinish(true, "AllJobsCompleted", "jobset completed successfully"));
        assertThat(kind.finished(withStatus(
                "status: {conditions: [{type: Failed, status: \"True\", reason: FailedJobs, message: jobset failed due to one or more job failures}]}")))
                .contains(new JobFinish(false, "FailedJobs", "jobset failed due to one or more job failures"));
        assertThat(kind.finished(withStatus("status: {conditions: [{type: Completed, status: \"False\"}]}")))
                .isEmpty();
    }

    @Test
    void activeWhenAnyReplicatedJobIsActive() {
        assertThat(kind.isActive(withStatus("status: {}"))).isFalse();
        assertThat(kind.isActive(withStatus(
                "status: {replicatedJobsStatus: [{name: a, active: 0, succeeded: 1}, {name: b, active: 0}]}")))
                .isFalse();
        assertThat(kind.isActive(withStatus(
                "status: {replicatedJobsStatus: [{name: a, active: 0}, {name: b, active: 1}]}")))
                .isTrue();
    }

    @Test
    void replicasDefaultToOne() {
        GenericKubernetesResource js = Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: d}
                spec:
                  replicatedJobs:
                  - name: leader
                    template: {spec: {parallelism: 4, completions: 2, template: {spec: {containers: [{name: c}]}}}}
                """);
        assertThat(kind.podSets(js)).singleElement().satisfies(ps -> assertThat(ps.count()).isEqualTo(2));
    }

    @Test
    void duplicateReplicatedJobNamesRejected() {
        GenericKubernetesResource js = Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: d, namespace: ns}
                spec:
                  replicatedJobs:
                  - name: w
                    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
                  - name: w
                    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
                """);
        assertThatThrownBy(() -> kind.podSets(js)).isInstanceOf(InvalidJobException.class)
                .hasMessage("JobSet ns/d: spec.replicatedJobs[1].name: \"w\" is used twice; "
                        + "give each replicated job its own name");
    }

    @Test
    void missingReplicatedJobsOrTemplateRejected() {
        assertThatThrownBy(() -> kind.podSets(Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: d}
                spec: {}
                """))).isInstanceOf(InvalidJobException.class).hasMessageContaining("spec.replicatedJobs");
        assertThatThrownBy(() -> kind.podSets(Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: d}
                spec:
                  replicatedJobs:
                  - name: w
                    replicas: 2
                    template: {spec: {parallelism: 2}}
                """))).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.replicatedJobs[0].template.spec.template: is missing");
        assertThatThrownBy(() -> kind.podSets(Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: d}
                spec:
                  replicatedJobs:
                  - name: w
                    template: {spec: {template: {spec: {containers: []}}}}
                """))).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.replicatedJobs[0].template.spec.template.spec.containers: is empty");
    }
}
