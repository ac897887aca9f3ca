package dev.sluice.engine;

/** Reason of the QuotaReserved=False condition (Kueue's reasons). */
public enum PendingReason {
    Pending, Inadmissible
}
