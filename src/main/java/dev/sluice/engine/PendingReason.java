package dev.sluice.engine;

/** Reason of the QuotaReserved=False condition (Kueue's reasons). */
public enum PendingReason {
    Pending, Inadmissible,
    /** Held by waitForPodsReady.blockAdmission until every admitted workload is ready (Kueue v0.19's reason). */
    WaitingForPodsReady
}
