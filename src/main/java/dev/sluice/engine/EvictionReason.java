package dev.sluice.engine;

/** Why an admitted workload is evicted (Kueue's reasons). */
public enum EvictionReason {
    Preempted, ClusterQueueStopped, LocalQueueStopped, InactiveWorkload, Deleted,
    /** Its pods were not ready in time (waitForPodsReady); decided by the caller, see {@link Engine#evict}. */
    PodsReadyTimeout,
    /** An admission check said Retry: quota released, queued again after a backoff; decided by the caller. */
    AdmissionCheck
}
