package dev.sluice.engine;

/**
 * Why a workload is still waiting, in words a person can act on; unadmittedReason is Kueue's granular reason for
 * the same (see {@link UnadmittedReason}).
 */
public record PendingStatus(WorkloadKey workload, PendingReason reason, String message,
                            UnadmittedReason unadmittedReason) {
    public PendingStatus {
        if (unadmittedReason == null) {
            unadmittedReason = UnadmittedReason.fallback(reason);
        }
    }

    /** A status without a granular reason: it is derived from the coarse one (Inadmissible: Misconfigured). */
    public PendingStatus(WorkloadKey workload, PendingReason reason, String message) {
        this(workload, reason, message, null);
    }
}
