package dev.sluice.engine;

/** Why an admitted workload is evicted (Kueue's reasons). */
public enum EvictionReason {
    Preempted, ClusterQueueStopped, LocalQueueStopped, InactiveWorkload, Deleted
}
