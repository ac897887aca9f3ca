package dev.sluice.controller.conditions;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.readiness.PodsReadyRules;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;

/**
 * A Workload's status through its life, in Kueue's condition types and reasons. Each function changes the given
 * object and returns it; setting what is already set changes nothing (lastTransitionTime included), so the
 * caller can skip the write.
 */
public final class WorkloadConditions {

    public static final String QUOTA_RESERVED = "QuotaReserved";
    public static final String ADMITTED = "Admitted";
    public static final String EVICTED = "Evicted";
    public static final String PREEMPTED = "Preempted";
    public static final String REQUEUED = "Requeued";
    public static final String FINISHED = "Finished";
    /**
     * Sluice's own: a write Sluice must make for this Workload (its job's suspend, start or restore) was refused by the
     * API server; the message has the server's answer. False again once such a write goes through.
     */
    public static final String WRITE_FAILED = "WriteFailed";

    /** Kueue's Admitted=False reason for a workload without quota reservation, and its message. */
    public static final String NO_RESERVATION = "NoReservation";
    static final String NO_RESERVATION_MESSAGE = "The workload has no reservation";
    /** QuotaReserved=False reason of a workload with {@code spec.active: false} (KEP 10852 precedence 1). */
    public static final String DEACTIVATED = "Deactivated";
    static final String DEACTIVATED_MESSAGE = "The workload is deactivated";

    private WorkloadConditions() {
    }

    /** Quota reserved and admitted (no admission checks); an earlier eviction is now history. */
    public static Workload admit(Workload wl, Admission admission, String message, Instant now) {
        return admit(wl, admission, message, List.of(), now);
    }

    /**
     * Quota reserved; status.admissionChecks lists {@code checks} (a new one Pending, states already there kept, others
     * dropped) and Admitted is True only when every one is Ready (else False, UnsatisfiedAdmissionChecks); an earlier
     * eviction is now history.
     */
    public static Workload admit(Workload wl, Admission admission, String message, java.util.Collection<String> checks,
            Instant now) {
        WorkloadStatus status = status(wl);
        status.setAdmission(admission);
        set(wl, QUOTA_RESERVED, true, "QuotaReserved", message, now);
        AdmissionCheckStates.sync(wl, checks, now);
        AdmissionCheckStates.syncAdmitted(wl, now);
        for (String type : List.of(EVICTED, PREEMPTED)) {
            Condition c = Conditions.find(status.getConditions(), type);
            if (c != null && "True".equals(c.getStatus())) {
                set(wl, type, false, "QuotaReserved", "Previously: " + c.getMessage(), now);
            }
        }
        return wl;
    }

    /** The engine evicted the workload; it keeps its admission until its job is stopped. */
    public static Workload evict(Workload wl, String reason, String preemptionReason, String message, Instant now) {
        set(wl, EVICTED, true, reason, message, now);
        if (preemptionReason != null) {
            set(wl, PREEMPTED, true, preemptionReason, message, now);
        }
        return wl;
    }

    /** The evicted workload's job is stopped: the quota is released and the workload waits again. */
    public static Workload requeue(Workload wl, Instant now) {
        WorkloadStatus status = status(wl);
        Condition evicted = Conditions.find(status.getConditions(), EVICTED);
        String reason = evicted == null ? "Pending" : evicted.getReason();
        String message = evicted == null ? "The workload is requeued" : evicted.getMessage();
        status.setAdmission(null);
        // queued again, not tried yet (Kueue v0.19, KEP 10852); a deactivated one says so, with Kueue's message for it
        set(wl, QUOTA_RESERVED, false, deactivated(wl) ? DEACTIVATED : "PendingEvaluation",
                deactivated(wl) ? DEACTIVATED_MESSAGE : message, now);
        set(wl, ADMITTED, false, NO_RESERVATION, NO_RESERVATION_MESSAGE, now);
        // timed out for PodsReady or deactivated: not requeued until the backoff ends or it is activated again
        String held = heldRequeueReason(reason);
        set(wl, REQUEUED, held == null, held == null ? reason : held, message, now);
        if (Conditions.find(status.getConditions(), dev.sluice.readiness.PodsReadyRules.CONDITION) != null) {
            set(wl, dev.sluice.readiness.PodsReadyRules.CONDITION, false, dev.sluice.readiness.PodsReadyRules.WAIT_FOR_START,
                    dev.sluice.readiness.PodsReadyRules.NOT_READY_MESSAGE, now);
        }
        return wl;
    }

    /**
     * After the job of a Workload evicted for PodsReadyTimeout or AdmissionCheck (a Retry) or deactivated is stopped,
     * Requeued is False with the Evicted reason itself (PodsReadyTimeout, AdmissionCheck, Deactivated,
     * DeactivatedDueToRequeuingLimitExceeded), as Kueue v0.19's
     * job reconciler writes it ({@code SetRequeuedCondition(wl, evCond.Reason, evCond.Message, false)}), until the
     * backoff ends or the Workload is activated again.
     */
    private static String heldRequeueReason(String evictedReason) {
        if (PodsReadyRules.TIMEOUT_REASON.equals(evictedReason)
                || AdmissionCheckStates.EVICTION_REASON.equals(evictedReason)) {
            return evictedReason; // Kueue: Requeued True only after a preemption (or node failure)
        }
        if (evictedReason != null && evictedReason.startsWith(PodsReadyRules.DEACTIVATED)) {
            return evictedReason;
        }
        return null;
    }

    /**
     * Still waiting; only for a workload without a reservation. {@code reason} is Kueue v0.19's granular reason
     * (KEP 10852, its gates on by default in v0.19): a deactivated workload ({@code spec.active: false}) says
     * {@code Deactivated} first, as Kueue's precedence puts it above all others. Admitted=False/NoReservation goes in
     * the same status write, as Kueue initialises both conditions in one patch.
     */
    public static Workload pending(Workload wl, String reason, String message, Instant now) {
        if (status(wl).getAdmission() != null) {
            return wl;
        }
        set(wl, QUOTA_RESERVED, false, deactivated(wl) ? DEACTIVATED : reason, message, now);
        set(wl, ADMITTED, false, NO_RESERVATION, NO_RESERVATION_MESSAGE, now);
        return wl;
    }

    public static boolean deactivated(Workload wl) {
        return wl.getSpec() != null && Boolean.FALSE.equals(wl.getSpec().getActive());
    }

    public static Workload finish(Workload wl, String reason, String message, Instant now) {
        set(wl, FINISHED, true, reason, message, now);
        return wl;
    }

    /** {@code message} null: the refused write went through since; a condition never set is not added then. */
    public static Workload writeFailed(Workload wl, String message, Instant now) {
        if (message != null) {
            set(wl, WRITE_FAILED, true, "JobWriteRefused", message, now);
        } else if (find(wl, WRITE_FAILED) != null) {
            set(wl, WRITE_FAILED, false, "Written", "The job was written", now);
        }
        return wl;
    }

    public static boolean isTrue(Workload wl, String type) {
        return wl.getStatus() != null && Conditions.isTrue(wl.getStatus().getConditions(), type);
    }

    /** When the Workload finished, as its Finished condition says; empty when it does not say it readably. */
    public static java.util.OptionalLong finishedMillis(Workload wl) {
        Condition c = find(wl, FINISHED);
        if (c == null || !"True".equals(c.getStatus()) || c.getLastTransitionTime() == null) {
            return java.util.OptionalLong.empty();
        }
        try {
            return java.util.OptionalLong.of(Instant.parse(c.getLastTransitionTime()).toEpochMilli());
        } catch (java.time.format.DateTimeParseException unreadable) {
            return java.util.OptionalLong.empty();
        }
    }

    public static Condition find(Workload wl, String type) {
        return wl.getStatus() == null ? null : Conditions.find(wl.getStatus().getConditions(), type);
    }

    public static boolean hasReservation(Workload wl) {
        return wl.getStatus() != null && wl.getStatus().getAdmission() != null;
    }

    /** Quota reserved and not being evicted: the job may run. */
    public static boolean mayRun(Workload wl) {
        return hasReservation(wl) && isTrue(wl, QUOTA_RESERVED) && isTrue(wl, ADMITTED) && !isTrue(wl, EVICTED)
                && !isTrue(wl, FINISHED);
    }

    private static WorkloadStatus status(Workload wl) {
        if (wl.getStatus() == null) {
            wl.setStatus(new WorkloadStatus());
        }
        return wl.getStatus();
    }

    private static void set(Workload wl, String type, boolean value, String reason, String message, Instant now) {
        WorkloadStatus status = status(wl);
        status.setConditions(Conditions.set(status.getConditions(), type, value, reason, message,
                wl.getMetadata().getGeneration(), now));
    }
}
