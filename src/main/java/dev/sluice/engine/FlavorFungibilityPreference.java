package dev.sluice.engine;

/**
 * Kueue v0.19's flavorFungibility.preference: what decides between flavors that all need borrowing, preemption or
 * both. BorrowingOverPreemption (also when unset): the better preemption mode first (fit, reclamation, preemption
 * in the own queue), then the lower borrowing level; PreemptionOverBorrowing: the lower borrowing level first.
 */
public enum FlavorFungibilityPreference {
    BorrowingOverPreemption, PreemptionOverBorrowing
}
