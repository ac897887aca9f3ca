package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ray.io/v1} RayService (KubeRay), as Kueue v0.19.2's {@code rayservice} integration: a serving Ray cluster
 * whose pod sets ({@code head} and one per worker group) come from {@code spec.rayClusterConfig} as a RayCluster's
 * do (see {@link RayGroupsKind}), no partial admission, held by {@code spec.rayClusterConfig.suspend} (KubeRay creates
 * no pods for a suspended cluster). A service has no end: never finished, its Workload stays admitted until the
 * RayService is deleted. Active and pods ready while its {@code Ready} condition is True. The RayCluster KubeRay
 * creates for it is controlled by the RayService and is never queued itself. {@code enableInTreeAutoscaling} is
 * refused as for a RayCluster.
 */
public final class RayServiceKind extends RayGroupsKind {
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
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        throw new UnsupportedOperationException("RayService has no partial admission");
    }

    @Override
    protected boolean supportsPartialCount() {
        return false;
    }

    /** Never: a service runs until it is deleted (Kueue's {@code Finished} answers false always). */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        return Optional.empty();
    }

    /** The {@code Ready} condition is True (Kueue's {@code IsActive}: RayServiceReady). */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        return ready(job);
    }

    /** The {@code Ready} condition is True (Kueue's {@code PodsReady}). */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        return ready(job);
    }

    private static boolean ready(GenericKubernetesResource job) {
        return Conditions.isTrue(job, "Ready");
    }
}
