package dev.sluice.engine;

/** Why a workload was preempted (Kueue's reasons). */
public enum PreemptionReason {
    InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing, InCohortFairSharing
}
