package dev.sluice.engine;

/** Kueue's fair-sharing preemption strategies (KEP-1714 rules S2-a and S2-b). */
public enum FairSharingStrategy {
    /** S2-a: the preemptor's share after admission is at most the target's share after the preemption. */
    LessThanOrEqualToFinalShare,
    /** S2-b: the preemptor's share after admission is below the target's share before the preemption. */
    LessThanInitialShare
}
