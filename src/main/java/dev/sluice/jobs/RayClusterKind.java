package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ray.io/v1} RayCluster (KubeRay), as Kueue v0.19.2's {@code raycluster} integration: pod sets {@code head} and
 * one per worker group from {@code spec} (see {@link RayGroupsKind}), no partial admission, held by
 * {@code spec.suspend} (KubeRay deletes the cluster's pods while it is set). A RayCluster has no end: Kueue never
 * counts it finished, and its Workload stays admitted until the RayCluster is deleted. Active and pods ready: while
 * {@code status.state} is {@code ready}. A RayCluster with {@code spec.enableInTreeAutoscaling: true} is not queued
 * (Kueue's webhook refuses it: once quota is reserved the cluster must not grow): its Workload is Inadmissible until
 * that is removed. A RayCluster that a queued RayJob controls is the RayJob's and is never queued itself.
 */
public final class RayClusterKind extends RayGroupsKind {

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
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        throw new UnsupportedOperationException("RayCluster has no partial admission");
    }

    @Override
    protected boolean supportsPartialCount() {
        return false;
    }

    /** Never: a RayCluster runs until it is deleted (Kueue's {@code Finished} answers false always). */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        return Optional.empty();
    }

    /** {@code status.state} is {@code ready} (Kueue's {@code IsActive}). */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        return ready(job);
    }

    /** {@code status.state} is {@code ready}: KubeRay sets it once the head and every worker pod run and are ready. */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        return ready(job);
    }

    private static boolean ready(GenericKubernetesResource job) {
        return "ready".equals(RawTree.string(status(job), "state", Models.ref(job), "status.state"));
    }
}
