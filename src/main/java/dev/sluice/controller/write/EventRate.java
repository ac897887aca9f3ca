package dev.sluice.controller.write;

import java.util.function.LongSupplier;

/**
 * How fast Events may be written: a token bucket of {@code burst} requests refilled at {@code qps} per second, the
 * limiter client-go puts in front of every request (Kueue's {@code clientConnection} defaults: 20 per second, burst
 * 30). Sluice applies it to Events only: conditions carry the same facts and are never held back, while Events are
 * what an admission storm multiplies (two per admission in Kueue's words). A backlog that the rate cannot drain is
 * dropped as client-go's broadcaster drops it, and counted. {@code qps <= 0} means no limit.
 */
public record EventRate(double qps, int burst) {

    static final EventRate KUEUE_DEFAULT = new EventRate(20, 30);
    static final EventRate UNLIMITED = new EventRate(0, 1);

    public EventRate {
        if (burst < 1) {
            throw new IllegalArgumentException("sluice.events.burst must be at least 1, got " + burst);
        }
        if (Double.isNaN(qps) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException("sluice.events.qps must be a number (0 for no limit), got " + qps);
        }
    }

    boolean limited() {
        return qps > 0;
    }

    /** A bucket for one sender thread, full at the start. */
    Bucket bucket(LongSupplier nanoTime) {
        return new Bucket(this, nanoTime);
    }

    /** Not thread-safe: one sender owns it. */
    static final class Bucket {
        private final EventRate rate;
        private final LongSupplier nanoTime;
        private double tokens;
        private long last;

        private Bucket(EventRate rate, LongSupplier nanoTime) {
            this.rate = rate;
            this.nanoTime = nanoTime;
            this.tokens = rate.burst();
            this.last = nanoTime.getAsLong();
        }

        /** Takes a token if there is one and answers 0, or answers how many nanoseconds until there is one. */
        long take() {
            if (!rate.limited()) {
                return 0;
            }
            long now = nanoTime.getAsLong();
            tokens = Math.min(rate.burst(), tokens + (now - last) / 1e9 * rate.qps());
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - tokens) / rate.qps() * 1e9));
        }
    }
}
