package dev.sluice.engine;

/** The state of one admission check of a reserved workload (Kueue's CheckState). */
public enum CheckState {
    /** Not decided yet: the workload holds its quota and waits. */
    Pending,
    /** Passed; with every check Ready the workload is admitted. */
    Ready,
    /** Failed for now: the quota is released and the workload queued again after a backoff. */
    Retry,
    /** Failed for good: the workload is deactivated. */
    Rejected
}
