package dev.sluice.jobs;

/**
 * Why a held job's pod templates cannot be put back yet: its API server accepts a template change only in a state the
 * job has not reached (see {@link JobKind#restoreWait}).
 */
public enum RestoreWait {
    /**
     * batch/v1 Job: {@code status.startTime} is set. Before Kubernetes 1.36 the API server lets a Job's template change
     * only while it is suspended and has no start time; the controller clears it (status subresource), as Kueue does.
     */
    START_TIME,
    /** batch/v1 Job: pods are still active; the Job controller removes them after the suspend and reports it. */
    ACTIVE_PODS
}
