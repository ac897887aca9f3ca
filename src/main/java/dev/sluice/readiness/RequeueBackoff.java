package dev.sluice.readiness;

import java.time.Duration;

/**
 * How long a workload evicted for PodsReadyTimeout waits before it may be admitted again, as Kueue computes it: the
 * n-th requeue waits {@code base × 2^(n-1)}, each doubling capped at {@code max}, plus a jitter of at most 0.01 %
 * (Kueue's factor 0.0001) so that workloads evicted together do not come back in the same instant.
 */
public final class RequeueBackoff {
    /** Kueue's jitter factor. */
    public static final double JITTER = 0.0001;
    private static final double NO_CAP_SECONDS = 100 * 365 * 24 * 3600.0;

    private RequeueBackoff() {
    }

    /**
     * @param count the requeue this is for, 1 for the first
     * @param random a number in [0, 1) (the jitter's share); 0 gives the bare backoff
     */
    public static Duration delay(int count, int baseSeconds, int maxSeconds, double random) {
        if (count < 1) {
            throw new IllegalArgumentException("requeue count starts at 1, got " + count);
        }
        // max 0 means no cap, as in Kueue (Kubernetes' wait.Backoff); a century bounds it anyway
        double cap = maxSeconds > 0 ? maxSeconds : NO_CAP_SECONDS;
        double seconds = baseSeconds;
        // the cap applies to each doubled value, not to the base itself (as Kubernetes' wait.Backoff steps)
        for (int i = 1; i < count && seconds < cap; i++) {
            seconds = Math.min(seconds * 2, cap);
        }
        double withJitter = seconds * (1 + JITTER * Math.max(0, Math.min(random, 1)));
        return Duration.ofNanos(Math.round(withJitter * 1e9));
    }
}
