package dev.sluice.controller.write;

import java.time.Duration;

/**
 * How the controller writes its decisions: {@code lanes} writers side by side (one object's writes stay in order),
 * the restraint on pending-status writes (see {@link PendingStatusWrites}), and the rate of Events ({@link EventRate}).
 */
public record WriteSettings(int lanes, Duration pendingDelay, Duration pendingRefresh, EventRate events) {

    WriteSettings(int lanes, Duration pendingDelay, Duration pendingRefresh) {
        this(lanes, pendingDelay, pendingRefresh, EventRate.KUEUE_DEFAULT);
    }

    public WriteSettings {
        if (lanes < 1) {
            throw new IllegalArgumentException("sluice.controller.write-concurrency must be at least 1, got " + lanes);
        }
        if (pendingDelay.isNegative() || pendingRefresh.isNegative()) {
            throw new IllegalArgumentException("sluice.controller.pending-status durations must not be negative");
        }
    }
}
