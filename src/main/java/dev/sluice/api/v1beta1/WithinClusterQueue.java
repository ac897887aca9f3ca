package dev.sluice.api.v1beta1;

/** Which workloads of the own ClusterQueue may be preempted. */
public enum WithinClusterQueue {
    Never, LowerPriority, LowerOrNewerEqualPriority
}
