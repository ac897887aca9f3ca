package dev.sluice.engine;

/** Which workloads of its own ClusterQueue a workload may preempt. */
public enum WithinClusterQueue {
    Never, LowerPriority, LowerOrNewerEqualPriority
}
