package dev.sluice.api.v1beta2;

/** Which workloads of other ClusterQueues in the cohort may be preempted to reclaim nominal quota. */
public enum ReclaimWithinCohort {
    Never, LowerPriority, Any
}
