package dev.sluice.controller.session;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.engine.WorkloadPhase;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Kueue's {@code objectRetentionPolicies.workloads} (v0.19): how long a Workload is kept once it is of no more use.
 * <ul>
 * <li>{@code afterFinished}: a Workload with {@code Finished=True} is deleted that long after the condition's
 * lastTransitionTime (Kueue's workload controller).
 * <li>{@code afterDeactivatedByKueue}: a Workload that Kueue deactivated ({@code spec.active: false} and
 * {@code Evicted=True} with a reason {@code DeactivatedDueTo...}, e.g. the requeuing limit of waitForPodsReady) is
 * deleted that long after the eviction: by deleting its job (background propagation, as Kueue's job reconciler does,
 * so the job does not make a new Workload), or the Workload itself when no job owns it. A Workload a user deactivated
 * (reason {@code Deactivated}) is kept.
 * </ul>
 * Unset (null) is infinite retention, Kueue's default; zero deletes at once. Decisions only: {@code RetentionSweep}
 * deletes, and never a Workload that holds quota.
 */
public record WorkloadRetention(Duration afterFinished, Duration afterDeactivatedByKueue) {

    static final WorkloadRetention KEEP_ALL = new WorkloadRetention(null, null);
    static final String DEACTIVATED_BY_KUEUE_PREFIX = "DeactivatedDueTo";

    public WorkloadRetention {
        check("sluice.object-retention.workloads.after-finished", afterFinished);
        check("sluice.object-retention.workloads.after-deactivated-by-kueue", afterDeactivatedByKueue);
    }

    private static void check(String property, Duration d) {
        if (d != null && d.isNegative()) {
            throw new IllegalArgumentException(property + " must not be negative (0 deletes at once, unset keeps "
                    + "Workloads for ever), not " + d);
        }
    }

    public boolean enabled() {
        return afterFinished != null || afterDeactivatedByKueue != null;
    }

    /** Why a Workload goes, and when. */
    public enum Cause { FINISHED, DEACTIVATED_BY_KUEUE }

    public record Expiry(Cause cause, Instant at) {
    }

    /** When the policy deletes this Workload (in the state shown), or empty: it names it not. */
    public Optional<Expiry> expiry(Workload wl) {
        if (wl.getStatus() == null || wl.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        Condition finished = WorkloadConditions.find(wl, WorkloadConditions.FINISHED);
        if (finished != null && "True".equals(finished.getStatus())) {
            return afterFinished == null ? Optional.empty() : at(Cause.FINISHED, finished, afterFinished);
        }
        if (afterDeactivatedByKueue != null && deactivatedByKueue(wl)) {
            return at(Cause.DEACTIVATED_BY_KUEUE, WorkloadConditions.find(wl, WorkloadConditions.EVICTED),
                    afterDeactivatedByKueue);
        }
        return Optional.empty();
    }

    /**
     * Whether the Workload's quota is in use or not yet released: the engine counts it as admitted or being evicted, or
     * it carries an admission and has not finished (a finished Workload's quota is released when it finishes).
     */
    public static boolean holdsQuota(Workload wl, Optional<WorkloadPhase> enginePhase) {
        if (enginePhase.isPresent() && (enginePhase.get() == WorkloadPhase.ADMITTED
                || enginePhase.get() == WorkloadPhase.EVICTING)) {
            return true;
        }
        return WorkloadConditions.hasReservation(wl) && !WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED);
    }

    public static boolean deactivatedByKueue(Workload wl) {
        boolean inactive = wl.getSpec() != null && Boolean.FALSE.equals(wl.getSpec().getActive());
        Condition evicted = WorkloadConditions.find(wl, WorkloadConditions.EVICTED);
        return inactive && evicted != null && "True".equals(evicted.getStatus()) && evicted.getReason() != null
                && evicted.getReason().startsWith(DEACTIVATED_BY_KUEUE_PREFIX);
    }

    private static Optional<Expiry> at(Cause cause, Condition since, Duration keep) {
        try {
            return Optional.of(new Expiry(cause, Instant.parse(since.getLastTransitionTime()).plus(keep)));
        } catch (DateTimeParseException | NullPointerException e) {
            return Optional.empty(); // no time to count from: kept, as nothing says how long it has been
        }
    }
}
