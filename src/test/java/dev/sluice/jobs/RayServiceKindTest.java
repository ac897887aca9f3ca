package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RayService ({@code ray.io/v1}): the cases of Kueue v0.19.2's {@code rayservice_controller_test.go} (TestPodSets,
 * TestIsSuspended, TestIsActive, TestPodsReady) and {@code rayservice_webhook_test.go} (TestValidateCreate) under
 * their names, plus start and restore.
 */
class RayServiceKindTest {
    private final RayServiceKind kind = new RayServiceKind();

    private static GenericKubernetesResource service() {
        return Manifests.load("rayservice.yaml").get(0);
    }

    private static Map<String, Object> cluster(GenericKubernetesResource rs) {
        return rs.get("spec", "rayClusterConfig");
    }

    private static void status(GenericKubernetesResource rs, String readyStatus) {
        Map<String, Object> status = new HashMap<>();
        if (readyStatus != null) {
            status.put("conditions", List.of(Map.of("type", "Ready", "status", readyStatus, "reason", "x")));
        }
        rs.getAdditionalProperties().put("status", status);
    }

    @Test
    void podSets_noAnnotations() {
        assertThat(kind.podSets(service())).extracting(PodSetTemplate::name, PodSetTemplate::count,
                PodSetTemplate::minCount)
                .containsExactly(tuple("head", 1, null), tuple("group1", 1, null), tuple("group2", 3, null));
    }

    @Test
    void podSets_withRequiredTopologyAnnotation() {
        GenericKubernetesResource rs = service();
        Map<String, Object> head = rs.get("spec", "rayClusterConfig", "headGroupSpec", "template");
        head.put("metadata", new HashMap<>(Map.of("annotations",
                Map.of("kueue.x-k8s.io/podset-required-topology", "cloud.com/block"))));
        assertThat(kind.podSets(rs).get(0).template().getMetadata().getAnnotations())
                .containsEntry("kueue.x-k8s.io/podset-required-topology", "cloud.com/block");
    }

    @Test
    void podSets_withNumOfHostsGreaterThan1() {
        GenericKubernetesResource rs = service();
        Map<String, Object> group = rs.get("spec", "rayClusterConfig", "workerGroupSpecs", 0);
        group.put("replicas", 2);
        group.put("numOfHosts", 3);
        assertThat(kind.podSets(rs).get(1).count()).as("2 replicas * 3 NumOfHosts").isEqualTo(6);
    }

    @Test
    void isSuspended_notSuspended() {
        GenericKubernetesResource rs = service();
        cluster(rs).put("suspend", false);
        assertThat(kind.isSuspended(rs)).isFalse();
    }

    @Test
    void isSuspended_suspended() {
        GenericKubernetesResource rs = service();
        cluster(rs).put("suspend", true);
        assertThat(kind.isSuspended(rs)).isTrue();
    }

    @Test
    void isSuspended_suspendIsNil() {
        assertThat(kind.isSuspended(service())).isFalse();
    }

    @Test
    void isActive_activeRayServiceReadyConditionIsTrue() {
        GenericKubernetesResource rs = service();
        status(rs, "True");
        assertThat(kind.isActive(rs)).isTrue();
    }

    @Test
    void isActive_notActiveRayServiceReadyConditionIsFalse() {
        GenericKubernetesResource rs = service();
        status(rs, "False");
        assertThat(kind.isActive(rs)).isFalse();
    }

    @Test
    void isActive_notActiveNoConditions() {
        GenericKubernetesResource rs = service();
        status(rs, null);
        assertThat(kind.isActive(rs)).isFalse();
        assertThat(kind.isActive(service())).as("no status at all").isFalse();
    }

    @Test
    void podsReady_podsReadyRayServiceReadyConditionIsTrue() {
        GenericKubernetesResource rs = service();
        status(rs, "True");
        assertThat(kind.podsReady(rs)).isTrue();
    }

    @Test
    void podsReady_podsNotReadyRayServiceReadyConditionIsFalse() {
        GenericKubernetesResource rs = service();
        status(rs, "False");
        assertThat(kind.podsReady(rs)).isFalse();
    }

    @Test
    void podsReady_podsNotReadyNoConditions() {
        GenericKubernetesResource rs = service();
        status(rs, null);
        assertThat(kind.podsReady(rs)).isFalse();
    }

    @Test
    void validateCreate_validRayservice() {
        assertThat(kind.podSets(service())).hasSize(3);
    }

    @Test
    void validateCreate_tooManyWorkerGroups() {
        GenericKubernetesResource rs = service();
        List<Object> groups = rs.get("spec", "rayClusterConfig", "workerGroupSpecs");
        for (int i = groups.size(); i < 8; i++) {
            groups.add(Map.of("groupName", "g" + i, "template", Map.of("spec", Map.of("containers",
                    List.of(Map.of("name", "w"))))));
        }
        assertThatThrownBy(() -> kind.podSets(rs)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.rayClusterConfig.workerGroupSpecs").hasMessageContaining("8 pod sets");
    }

    @Test
    void validateCreate_autoscalingWithoutElasticJobsFeature() {
        GenericKubernetesResource rs = service();
        cluster(rs).put("enableInTreeAutoscaling", true);
        assertThatThrownBy(() -> kind.podSets(rs)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.rayClusterConfig.enableInTreeAutoscaling")
                .hasMessageContaining("may not autoscale");
    }

    @Test
    void aServiceWithoutClusterConfigIsRefusedByField() {
        GenericKubernetesResource rs = service();
        rs.<Map<String, Object>>get("spec").remove("rayClusterConfig");
        assertThatThrownBy(() -> kind.podSets(rs)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.rayClusterConfig");
    }

    @Test
    void heldAndStartedByTheClusterConfigsSuspendThenRestoredOnStop() {
        GenericKubernetesResource rs = service();
        kind.hold(rs);
        assertThat(cluster(rs).get("suspend")).isEqualTo(true);
        assertThat(rs.<Object>get("spec", "suspend")).as("RayService itself has no spec.suspend").isNull();
        List<PodSetTemplate> originals = kind.podSets(rs);
        kind.start(rs, originals.stream().map(ps -> new PodSetStart(ps.name(), Map.of("cloud.com/pool", "serve"),
                List.of(), null)).toList());
        assertThat(cluster(rs).get("suspend")).isEqualTo(false);
        assertThat(rs.<Map<String, String>>get("spec", "rayClusterConfig", "workerGroupSpecs", 1, "template", "spec",
                "nodeSelector")).containsEntry("cloud.com/pool", "serve");
        kind.restore(rs, originals);
        assertThat(kind.isSuspended(rs)).isTrue();
        assertThat(kind.podSets(rs)).isEqualTo(originals);
    }

    @Test
    void neverFinished() {
        GenericKubernetesResource rs = service();
        status(rs, "True");
        assertThat(kind.finished(rs)).isEmpty();
    }

    @Test
    void theRayClusterOfAQueuedRayServiceIsTheRayServices() {
        GenericKubernetesResource rc = Manifests.load("raycluster.yaml").get(0);
        rc.getMetadata().setOwnerReferences(List.of(new OwnerReference("ray.io/v1", true, true, "RayService", "rs", "u1")));
        assertThat(JobKinds.only(List.of("rayservice", "raycluster")).controlledByOneOf(rc)).isTrue();
        assertThat(JobKinds.only(List.of("raycluster")).controlledByOneOf(rc)).as("RayService not queued").isFalse();
    }
}
