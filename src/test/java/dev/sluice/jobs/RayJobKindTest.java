package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RayJobKindTest {
    private final RayJobKind kind = new RayJobKind();

    @Test
    void multiHostGroupsCountHostsAndPartialAdmissionLowersReplicas() {
        GenericKubernetesResource job = Manifests.parse("""
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: r}
                spec:
                  rayClusterSpec:
                    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}
                    workerGroupSpecs:
                    - {groupName: TPU, replicas: 4, minReplicas: 2, numOfHosts: 2, template: {spec: {containers: [{name: w}]}}}
                """);
        kind.hold(job);
        List<PodSetTemplate> originals = kind.podSets(job);
        assertThat(originals).extracting(PodSetTemplate::name, PodSetTemplate::count, PodSetTemplate::minCount)
                .containsExactly(tuple("head", 1, null), tuple("tpu", 8, 4));
        assertThatThrownBy(() -> kind.start(job, List.of(new PodSetStart("head", Map.of(), List.of(), null),
                new PodSetStart("tpu", Map.of(), List.of(), 5))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of numOfHosts 2");
        kind.start(job, List.of(new PodSetStart("head", Map.of(), List.of(), null),
                new PodSetStart("tpu", Map.of(), List.of(), 6)));
        assertThat(job.<Integer>get("spec", "rayClusterSpec", "workerGroupSpecs", 0, "replicas")).isEqualTo(3);
        kind.restore(job, originals);
        assertThat(job.<Integer>get("spec", "rayClusterSpec", "workerGroupSpecs", 0, "replicas")).isEqualTo(4);
        assertThat(kind.podSets(job)).isEqualTo(originals);
    }

    @Test
    void groupNamedHeadIsRejected() {
        GenericKubernetesResource job = Manifests.parse("""
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: r}
                spec:
                  rayClusterSpec:
                    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}
                    workerGroupSpecs:
                    - {groupName: Head, template: {spec: {containers: [{name: w}]}}}
                """);
        assertThatThrownBy(() -> kind.podSets(job)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.rayClusterSpec.workerGroupSpecs[0].groupName");
    }
}
