package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Optional;

/**
 * RayCluster and RayService: a Ray cluster that runs until it is deleted. No partial admission, never finished
 * (Kueue's {@code Finished} answers false always: the Workload stays admitted until the object goes), active and pods
 * ready while the kind says the cluster is ready ({@link #ready}).
 */
abstract class UnendingRayKind extends RayGroupsKind {

    /** The kind's "the cluster is up" (RayCluster: {@code status.state} ready; RayService: its Ready condition). */
    protected abstract boolean ready(GenericKubernetesResource job);

    @Override
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        throw new UnsupportedOperationException(kind() + " has no partial admission");
    }

    @Override
    protected boolean supportsPartialCount() {
        return false;
    }

    /** Never: the cluster runs until it is deleted. */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        return Optional.empty();
    }

    /** Kueue's {@code IsActive}. */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        return ready(job);
    }

    /** Kueue's {@code PodsReady}. */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        return ready(job);
    }
}
