package dev.sluice.readiness;

import java.time.Duration;

/**
 * Kueue's {@code waitForPodsReady} settings. Defaults are Kueue v0.19's: on, timeout 30 minutes, recoveryTimeout equal
 * to the timeout, blockAdmission off, requeuing by eviction time with a backoff of 60 s doubling up to 3600 s, no limit
 * on the number of requeues.
 *
 * @param recoveryTimeout null: a workload that lost readiness is never timed out for it
 * @param backoffLimitCount null: requeued without end; else deactivated at the requeue after this many
 */
public record WaitForPodsReady(boolean enabled, Duration timeout, Duration recoveryTimeout, boolean blockAdmission,
                               RequeuingTimestamp requeuingTimestamp, int backoffBaseSeconds, int backoffMaxSeconds,
                               Integer backoffLimitCount) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
    public static final int DEFAULT_BACKOFF_BASE_SECONDS = 60;
    public static final int DEFAULT_BACKOFF_MAX_SECONDS = 3600;

    public WaitForPodsReady {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("sluice.wait-for-pods-ready.timeout must be a positive duration such as"
                    + " 30m, got " + timeout);
        }
        if (recoveryTimeout != null && (recoveryTimeout.isNegative() || recoveryTimeout.isZero())) {
            throw new IllegalArgumentException("sluice.wait-for-pods-ready.recovery-timeout must be a positive duration"
                    + " such as 30m (leave it unset to use the timeout), got " + recoveryTimeout);
        }
        if (requeuingTimestamp == null) {
            requeuingTimestamp = RequeuingTimestamp.Eviction;
        }
        if (backoffBaseSeconds < 0 || backoffMaxSeconds < 0) {
            throw new IllegalArgumentException("sluice.wait-for-pods-ready.backoff-base-seconds and "
                    + "backoff-max-seconds must not be negative, got " + backoffBaseSeconds + " and " + backoffMaxSeconds);
        }
        if (backoffMaxSeconds > 0 && backoffBaseSeconds > backoffMaxSeconds) {
            throw new IllegalArgumentException("sluice.wait-for-pods-ready.backoff-base-seconds (" + backoffBaseSeconds
                    + ") is above backoff-max-seconds (" + backoffMaxSeconds + "); raise the max or lower the base");
        }
        if (backoffLimitCount != null && backoffLimitCount < 0) {
            throw new IllegalArgumentException("sluice.wait-for-pods-ready.backoff-limit-count must not be negative "
                    + "(leave it unset for no limit), got " + backoffLimitCount);
        }
    }

    /** Kueue v0.19's defaults. */
    public static WaitForPodsReady kueueDefaults() {
        return new WaitForPodsReady(true, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, false, RequeuingTimestamp.Eviction,
                DEFAULT_BACKOFF_BASE_SECONDS, DEFAULT_BACKOFF_MAX_SECONDS, null);
    }

    /** Switched off: no timeouts, no blocking; the PodsReady condition is still kept. */
    public static WaitForPodsReady off() {
        WaitForPodsReady d = kueueDefaults();
        return new WaitForPodsReady(false, d.timeout(), d.recoveryTimeout(), false, d.requeuingTimestamp(),
                d.backoffBaseSeconds(), d.backoffMaxSeconds(), null);
    }

    /** Whether an admitted workload that is not ready holds every other admission back. */
    public boolean blocks() {
        return enabled && blockAdmission;
    }
}
