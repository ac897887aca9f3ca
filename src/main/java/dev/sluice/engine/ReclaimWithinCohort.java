package dev.sluice.engine;

/** Which borrowing workloads of other ClusterQueues in the cohort a workload may preempt to reclaim its nominal quota. */
public enum ReclaimWithinCohort {
    Never, LowerPriority, Any
}
