package dev.sluice.controller;

import java.time.Duration;

/**
 * How the controller writes its decisions: {@code lanes} writers side by side (one object's writes stay in order),
 * and the restraint on pending-status writes (see {@link PendingStatusWrites}).
 */
record WriteSettings(int lanes, Duration pendingDelay, Duration pendingRefresh) {

    WriteSettings {
        if (lanes < 1) {
            throw new IllegalArgumentException("sluice.controller.write-concurrency must be at least 1, got " + lanes);
        }
        if (pendingDelay.isNegative() || pendingRefresh.isNegative()) {
            throw new IllegalArgumentException("sluice.controller.pending-status durations must not be negative");
        }
    }
}
