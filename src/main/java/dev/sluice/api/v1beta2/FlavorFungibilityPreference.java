package dev.sluice.api.v1beta2;

/** Which a ClusterQueue prefers when every candidate flavor needs preemption, borrowing or both (Kueue v0.19). */
public enum FlavorFungibilityPreference {
    BorrowingOverPreemption, PreemptionOverBorrowing
}
