package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;

/**
 * {@code ray.io/v1} RayCluster (KubeRay), as Kueue v0.19.2's {@code raycluster} integration: pod sets {@code head} and
 * one per worker group from {@code spec} (see {@link RayGroupsKind}), no partial admission, held by
 * {@code spec.suspend} (KubeRay deletes the cluster's pods while it is set). A RayCluster has no end: Kueue never
 * counts it finished, and its Workload stays admitted until the RayCluster is deleted. Active and pods ready: while
 * {@code status.state} is {@code ready}. A RayCluster with {@code spec.enableInTreeAutoscaling: true} is not queued
 * (Kueue's webhook refuses it: once quota is reserved the cluster must not grow): its Workload is Inadmissible until
 * that is removed. A RayCluster that a queued RayJob controls is the RayJob's and is never queued itself.
 */
public final class RayClusterKind extends UnendingRayKind {

    @Override
    public String kind() {
        return "RayCluster";
    }

    @Override
    public String plural() {
        return "rayclusters";
    }

    @Override
    protected String clusterPath() {
        return "spec";
    }

    @Override
    protected Map<String, Object> clusterSpec(GenericKubernetesResource job, String ref) {
        Map<String, Object> spec = spec(job);
        if (spec == null) {
            throw new InvalidJobException(ref, "spec", "is missing", "give the RayCluster a headGroupSpec");
        }
        refuseAutoscaling(spec, ref, "RayCluster");
        return spec;
    }

    @Override
    protected boolean ready(GenericKubernetesResource job) {
        return "ready".equals(RawTree.string(status(job), "state", Models.ref(job), "status.state"));
    }
}
