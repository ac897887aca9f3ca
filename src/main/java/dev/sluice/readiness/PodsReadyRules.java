package dev.sluice.readiness;

import java.time.Duration;
import java.util.Optional;

/**
 * Kueue's rules for the PodsReady condition and the waitForPodsReady timers, free of I/O so that the controller and
 * the simulator apply the same ones:
 * <ul>
 * <li>PodsReady is False/WaitForStart until all pods are ready, then True/Started; once lost it is
 * False/WaitForRecovery, and True/Recovered when it comes back.</li>
 * <li>An admitted workload that is not ready is timed out {@code timeout} after its admission (WaitForStart) or
 * {@code recoveryTimeout} after it lost readiness (WaitForRecovery).</li>
 * <li>On a timeout it is requeued with {@link RequeueBackoff} (requeueState.count + 1, requeueAt), or deactivated when
 * that count would pass {@code backoffLimitCount}.</li>
 * </ul>
 */
public final class PodsReadyRules {

    public static final String CONDITION = "PodsReady";
    public static final String WAIT_FOR_START = "WaitForStart";
    public static final String WAIT_FOR_RECOVERY = "WaitForRecovery";
    public static final String STARTED = "Started";
    public static final String RECOVERED = "Recovered";
    /** Kueue's reason before v0.13, still read as "waiting for start". */
    public static final String LEGACY_REASON = "PodsReady";
    public static final String NOT_READY_MESSAGE = "Not all pods are ready or succeeded";
    public static final String RECOVERY_MESSAGE = "At least one pod has failed, waiting for recovery";
    public static final String READY_MESSAGE = "All pods reached readiness and the workload is running";

    /** Eviction reason and Requeued=False reason while the backoff runs. */
    public static final String TIMEOUT_REASON = "PodsReadyTimeout";
    /** Kueue's event reason for that eviction ({@code Evicted} + "DueTo" + reason). */
    public static final String TIMEOUT_EVENT = "EvictedDueToPodsReadyTimeout";
    public static final String BACKOFF_FINISHED = "BackoffFinished";
    public static final String BACKOFF_FINISHED_MESSAGE = "The workload backoff was finished";
    public static final String DEACTIVATION_TARGET = "DeactivationTarget";
    public static final String LIMIT_EXCEEDED = "RequeuingLimitExceeded";
    public static final String LIMIT_EXCEEDED_MESSAGE = "exceeding the maximum number of re-queuing retries";
    public static final String DEACTIVATED = "Deactivated";
    public static final String REACTIVATED = "Reactivated";
    public static final String REACTIVATED_MESSAGE = "The workload was reactivated";

    private PodsReadyRules() {
    }

    /** The PodsReady condition as Kueue writes it. */
    public record Ready(boolean status, String reason, String message) {
    }

    /** Kueue's condition message for a timeout of the Workload {@code namespace/name}. */
    public static String timeoutMessage(String namespace, String name) {
        return "Exceeded the PodsReady timeout " + namespace + "/" + name;
    }

    /** The Evicted reason of a deactivation because of {@code cause} (Kueue: Deactivated + "DueTo" + cause). */
    public static String deactivatedReason(String cause) {
        return cause == null || cause.isEmpty() ? DEACTIVATED : DEACTIVATED + "DueTo" + cause;
    }

    /** The Evicted message of that deactivation. */
    public static String deactivatedMessage(String causeMessage) {
        return causeMessage == null || causeMessage.isEmpty() ? "The workload is deactivated"
                : "The workload is deactivated due to " + causeMessage;
    }

    /**
     * The condition to hold next: {@code current} may be null (never written).
     *
     * @param admitted the workload is admitted now
     * @param podsReady the job's pods are all ready (or done) now
     */
    public static Ready next(boolean admitted, Ready current, boolean podsReady) {
        if (!admitted) {
            return new Ready(false, WAIT_FOR_START, NOT_READY_MESSAGE);
        }
        if (podsReady) {
            boolean recovering = current != null
                    && (WAIT_FOR_RECOVERY.equals(current.reason()) || RECOVERED.equals(current.reason()));
            return new Ready(true, recovering ? RECOVERED : STARTED, READY_MESSAGE);
        }
        if (current != null && (current.status() || WAIT_FOR_RECOVERY.equals(current.reason()))) {
            return new Ready(false, WAIT_FOR_RECOVERY, RECOVERY_MESSAGE);
        }
        return new Ready(false, WAIT_FOR_START, NOT_READY_MESSAGE);
    }

    /** When an admitted, not ready workload times out, and which wait it is (WaitForStart or WaitForRecovery). */
    public record Deadline(String cause, long atMillis) {
    }

    /**
     * The timeout ahead of an admitted workload, if any.
     *
     * @param current its PodsReady condition, null when it has none
     * @param currentSinceMillis when that condition last changed
     */
    public static Optional<Deadline> deadline(WaitForPodsReady settings, long admittedAtMillis, Ready current,
                                              long currentSinceMillis) {
        if (!settings.enabled() || (current != null && current.status())) {
            return Optional.empty();
        }
        if (current == null || WAIT_FOR_START.equals(current.reason()) || LEGACY_REASON.equals(current.reason())) {
            return Optional.of(new Deadline(WAIT_FOR_START, admittedAtMillis + settings.timeout().toMillis()));
        }
        if (WAIT_FOR_RECOVERY.equals(current.reason()) && settings.recoveryTimeout() != null) {
            return Optional.of(new Deadline(WAIT_FOR_RECOVERY,
                    currentSinceMillis + settings.recoveryTimeout().toMillis()));
        }
        return Optional.empty();
    }

    /** What a timeout does: requeue with a backoff, or deactivate. */
    public sealed interface Outcome permits Requeue, Deactivate {
    }

    /** Evicted and requeued: requeueState becomes {count, requeueAt}. */
    public record Requeue(int count, long requeueAtMillis) implements Outcome {
    }

    /** Requeued too often: deactivated (spec.active false) with reason RequeuingLimitExceeded. */
    public record Deactivate() implements Outcome {
    }

    /**
     * @param previousCount requeueState.count so far (0 when none)
     * @param random in [0, 1), the jitter's share
     */
    public static Outcome onTimeout(WaitForPodsReady settings, int previousCount, long nowMillis, double random) {
        Integer limit = settings.backoffLimitCount();
        if (limit != null && previousCount + 1 > limit) {
            return new Deactivate();
        }
        int count = previousCount + 1;
        Duration wait = RequeueBackoff.delay(count, settings.backoffBaseSeconds(), settings.backoffMaxSeconds(), random);
        return new Requeue(count, nowMillis + wait.toMillis());
    }

    /**
     * The time a workload takes its place in the queue by: with {@link RequeuingTimestamp#Eviction} the time of its
     * last PodsReadyTimeout eviction, if it has one; else its creation.
     *
     * @param timedOutAtMillis when it was evicted for PodsReadyTimeout, null if it was not
     */
    public static long queueOrderMillis(WaitForPodsReady settings, long creationMillis, Long timedOutAtMillis) {
        if (settings.requeuingTimestamp() == RequeuingTimestamp.Eviction && timedOutAtMillis != null) {
            return timedOutAtMillis;
        }
        return creationMillis;
    }
}
