package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/**
 * {@code ray.io/v1} RayService (KubeRay), as Kueue v0.19.2's {@code rayservice} integration: a serving Ray cluster
 * whose pod sets ({@code head} and one per worker group) come from {@code spec.rayClusterConfig} as a RayCluster's
 * do (see {@link RayGroupsKind}), no partial admission, held by {@code spec.rayClusterConfig.suspend} (KubeRay creates
 * no pods for a suspended cluster). A service has no end: never finished, its Workload stays admitted until the
 * RayService is deleted. Active and pods ready while its {@code Ready} condition is True. The RayCluster KubeRay
 * creates for it is controlled by the RayService and is never queued itself. {@code enableInTreeAutoscaling} is
 * refused as for a RayCluster.
 */
public final class RayServiceKind extends UnendingRayKind {
    private static final HoldStyle HOLD = new HoldStyle(List.of("spec", "rayClusterConfig"), false, false);

    @Override
    public String kind() {
        return "RayService";
    }

    @Override
    public String plural() {
        return "rayservices";
    }

    @Override
    protected HoldStyle holdStyle() {
        return HOLD;
    }

    @Override
    protected String clusterPath() {
        return "spec.rayClusterConfig";
    }

    @Override
    protected Map<String, Object> clusterSpec(GenericKubernetesResource job, String ref) {
        Map<String, Object> cluster = RawTree.object(spec(job), "rayClusterConfig", ref, "spec.rayClusterConfig");
        if (cluster == null) {
            throw new InvalidJobException(ref, "spec.rayClusterConfig", "is missing",
                    "give the RayService a rayClusterConfig with a headGroupSpec");
        }
        refuseAutoscaling(cluster, ref, "RayService");
        return cluster;
    }

    @Override
    protected boolean ready(GenericKubernetesResource job) {
        return Conditions.isTrue(job, "Ready");
    }
}
