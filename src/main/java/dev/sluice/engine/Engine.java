package dev.sluice.engine;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admission engine: events in, decisions out. Not thread-safe (one caller thread); deterministic
 * (the same calls give the same results).
 */
public final class Engine {

    public Engine() {
    }

    // ---- queue objects ----

    public void upsertFlavor(FlavorSpec flavor) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void deleteFlavor(String name) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void upsertClusterQueue(ClusterQueueSpec spec) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void deleteClusterQueue(String name) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void upsertLocalQueue(LocalQueueSpec spec) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void deleteLocalQueue(String namespace, String name) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void upsertNamespace(String name, Map<String, String> labels) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public void deleteNamespace(String name) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    // ---- workloads ----

    /** Adds or updates a pending workload; for an admitted one only active=false matters (evicts it). */
    public void submit(WorkloadSpec workload) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** At restart, before any schedule: counts an already-admitted workload's usage, even beyond quota. */
    public void restoreAdmitted(WorkloadSpec workload, Assignment assignment, long admittedAtMillis) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The caller stopped an evicted workload: release its quota and requeue it (unless deleted or inactive). */
    public void evictionDone(WorkloadKey key, long nowMillis) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The workload finished (success or failure): release its quota and forget it. */
    public void finish(WorkloadKey key) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The workload is gone: forget it, releasing its quota at once if admitted. */
    public void delete(WorkloadKey key) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** One admission cycle. Callers loop while the result has admissions or evictions. */
    public CycleResult schedule(long nowMillis) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    // ---- queries ----

    public ClusterQueueStatus clusterQueueStatus(String name) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public LocalQueueStatus localQueueStatus(String namespace, String name) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public Optional<WorkloadState> workload(WorkloadKey key) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Names of all ClusterQueues, sorted. */
    public List<String> clusterQueueNames() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Names of all cohorts that have at least one ClusterQueue, sorted. */
    public List<String> cohortNames() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** A cohort's members, nominal quota and usage (for metrics); empty if no ClusterQueue names it. */
    public Optional<CohortStatus> cohortStatus(String cohort) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
