package dev.sluice.api.v1beta2;

/** Which workloads of the own ClusterQueue may be preempted. */
public enum WithinClusterQueue {
    Never, LowerPriority, LowerOrNewerEqualPriority
}
