package dev.sluice.engine;

/**
 * Kueue v0.19's granular reasons of the QuotaReserved=False condition (KEP 10852, UnadmittedWorkloadsObservability;
 * apis/kueue/v1beta2 WorkloadQuotaReservedReason*), given beside the coarse {@link PendingReason} and the message.
 * Kueue v0.19 writes them as the condition's reason (the KEP's gates are Beta and on by default in v0.19); the engine
 * offers them and the controller writes them (docs/engine.md). The engine never gives WaitingForPodsReady
 * or AdmissionGated (it has no pods-ready gate or admission gates of its own).
 */
public enum UnadmittedReason {
    /** Waiting in its ClusterQueue to be tried (Kueue: pending evaluation in the scheduling queue). */
    PendingEvaluation,
    /** Not enough unused quota now; it may fit later (including: no preemption candidates, or skipped this cycle). */
    WaitingForQuota,
    /** No flavor of a resource group matches the pod set (node selector/affinity, taints, missing flavor, resource not covered). */
    NoMatchingFlavor,
    /** The request exceeds the most the ClusterQueue could ever hold (nominal plus what its cohorts may lend, within limits). */
    ExceedsMaxQuota,
    /** Its preemptions were issued; it waits for the victims to release their quota. */
    WaitingForPreemptedWorkloads,
    /** It cannot be queued as configured: no queue name, LocalQueue or ClusterQueue missing, namespace not selected. */
    Misconfigured,
    /** Its LocalQueue or ClusterQueue is stopped or inactive, or the workload is deactivated. */
    Suspended,
    /** Held by waitForPodsReady's blockAdmission: an admitted workload is not PodsReady yet. */
    WaitingForPodsReady,
    /** The quota fits but the flavor's topology has no placement for a pod set (topology-aware scheduling). */
    TopologyPlacementFailed;

    /** Kueue's severity order when pod sets or resource groups disagree: the most severe wins. */
    int severity() {
        return switch (this) {
            case NoMatchingFlavor -> 4;
            case ExceedsMaxQuota -> 3;
            case WaitingForQuota -> 2;
            case TopologyPlacementFailed -> 1;
            default -> 0;
        };
    }

    /** The more severe of two (null counts as none). */
    static UnadmittedReason worse(UnadmittedReason a, UnadmittedReason b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return b.severity() > a.severity() ? b : a;
    }

    /** The less severe of two alternatives (null counts as none). */
    static UnadmittedReason milder(UnadmittedReason a, UnadmittedReason b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return b.severity() < a.severity() ? b : a;
    }

    /** For a status made without one: what the coarse reason most often means. */
    static UnadmittedReason fallback(PendingReason reason) {
        return reason == PendingReason.Inadmissible ? Misconfigured : PendingEvaluation;
    }
}
