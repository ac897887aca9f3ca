package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RayCluster ({@code ray.io/v1}): the cases of Kueue v0.19.2's {@code raycluster_controller_test.go} and
 * {@code raycluster_webhook_test.go} that test pod sets, naming and suspend/run/restore, under their names.
 */
class RayClusterKindTest {
    private final RayClusterKind kind = new RayClusterKind();

    private static GenericKubernetesResource cluster() {
        return Manifests.load("raycluster.yaml").get(0);
    }

    @Test
    void podSets_noAnnotations() {
        assertThat(kind.podSets(cluster())).extracting(PodSetTemplate::name, PodSetTemplate::count,
                PodSetTemplate::minCount)
                .containsExactly(tuple("head", 1, null), tuple("small-group", 2, null), tuple("multi-host", 2, null));
    }

    @Test
    void reconciler_whenWorkloadIsAdmittedClusterIsUnsuspended() {
        GenericKubernetesResource rc = cluster();
        kind.hold(rc);
        assertThat(rc.<Boolean>get("spec", "suspend")).isTrue();
        kind.start(rc, kind.podSets(rc).stream().map(ps -> new PodSetStart(ps.name(),
                Map.of("kubernetes.io/arch", "arm64"), List.of(), null)).toList());
        assertThat(rc.<Boolean>get("spec", "suspend")).isFalse();
        assertThat(rc.<Map<String, String>>get("spec", "headGroupSpec", "template", "spec", "nodeSelector"))
                .containsEntry("kubernetes.io/arch", "arm64");
        assertThat(rc.<Map<String, String>>get("spec", "workerGroupSpecs", 1, "template", "metadata", "labels"))
                .containsEntry(WellKnown.POD_SET, "multi-host");
    }

    @Test
    void reconciler_whenWorkloadIsAdmittedButWorkloadsConditionsIsEvictedSuspendItAndRestoreNodeSelector() {
        GenericKubernetesResource rc = cluster();
        kind.hold(rc);
        List<PodSetTemplate> originals = kind.podSets(rc);
        kind.start(rc, originals.stream().map(ps -> new PodSetStart(ps.name(), Map.of("kubernetes.io/arch", "arm64"),
                List.of(), null)).toList());
        kind.restore(rc, originals);
        assertThat(kind.isSuspended(rc)).isTrue();
        assertThat(kind.podSets(rc)).isEqualTo(originals);
        assertThat(rc.<Object>get("spec", "headGroupSpec", "template", "spec", "nodeSelector")).isNull();
    }

    @Test
    void reconciler_rayClusterWithNumOfHostsGreaterThan1() {
        GenericKubernetesResource rc = cluster();
        assertThat(kind.podSets(rc).get(2).count()).as("replicas 1 × numOfHosts 2").isEqualTo(2);
        assertThatThrownBy(() -> kind.start(rc, kind.podSets(rc).stream().map(ps -> new PodSetStart(ps.name(),
                Map.of(), List.of(), ps.name().equals("multi-host") ? 1 : null)).toList()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partial admission");
    }

    @Test
    void validateCreate_invalidManagedHasAutoScaler() {
        GenericKubernetesResource rc = cluster();
        rc.<Map<String, Object>>get("spec").put("enableInTreeAutoscaling", true);
        assertThatThrownBy(() -> kind.podSets(rc)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.enableInTreeAutoscaling");
    }

    @Test
    void validateCreate_invalidManagedTooManyWorkerGroups() {
        GenericKubernetesResource rc = cluster();
        List<Object> groups = rc.get("spec", "workerGroupSpecs");
        for (int i = groups.size(); i < 8; i++) {
            groups.add(Map.of("groupName", "g" + i, "template", Map.of("spec", Map.of("containers",
                    List.of(Map.of("name", "w"))))));
        }
        assertThatThrownBy(() -> kind.podSets(rc)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.workerGroupSpecs").hasMessageContaining("8 pod sets");
        groups.remove(7);
        assertThat(kind.podSets(rc)).hasSize(8);
    }

    @Test
    void validateCreate_workerGroupUsesHeadName() {
        GenericKubernetesResource rc = cluster();
        rc.<Map<String, Object>>get("spec", "workerGroupSpecs", 0).put("groupName", "head");
        assertThatThrownBy(() -> kind.podSets(rc)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.workerGroupSpecs[0].groupName");
    }

    @Test
    void neverFinishedActiveAndReadyWhileStateIsReady() {
        GenericKubernetesResource rc = cluster();
        assertThat(kind.isActive(rc)).isFalse();
        rc.getAdditionalProperties().put("status", Map.of("state", "ready"));
        assertThat(kind.isActive(rc)).isTrue();
        assertThat(kind.podsReady(rc)).isTrue();
        assertThat(kind.finished(rc)).isEmpty();
        rc.getAdditionalProperties().put("status", Map.of("state", "suspended"));
        assertThat(kind.isActive(rc)).isFalse();
    }

    @Test
    void theRayClusterOfAQueuedRayJobIsTheRayJobs() {
        GenericKubernetesResource rc = cluster();
        JobKinds kinds = JobKinds.only(List.of("rayjob", "raycluster"));
        assertThat(kinds.controlledByOneOf(rc)).isFalse();
        rc.getMetadata().setOwnerReferences(List.of(new OwnerReference("ray.io/v1", true, true, "RayJob", "rj", "u1")));
        assertThat(kinds.controlledByOneOf(rc)).isTrue();
        assertThat(JobKinds.only(List.of("raycluster")).controlledByOneOf(rc)).as("RayJob not queued").isFalse();
    }
}
