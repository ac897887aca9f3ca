package dev.sluice.controller.lease;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether this replica is taking part in leader election, from the outcome of each attempt on the Lease. An attempt
 * is good when it ended as the elector wanted: the Lease read and found held by another replica whose term is still
 * running (a standby), or read and written (acquired or renewed). It is bad when the API server refused or could not
 * be reached. The replica is unhealthy when the last attempt was forbidden (RBAC will not fix itself) or when no
 * attempt was good for longer than the lease duration: a leader in that state has lost its term, and a standby could
 * not take over if the leader died. Thread-safe; attempts come from the elector's thread, questions from health checks.
 */
final class LeaseHealth {

    private final Clock clock;
    private final Duration leaseDuration;
    private Instant lastGood;
    private Instant lastBad;
    private int lastBadCode;
    private String lastBadMessage;

    LeaseHealth(Clock clock, Duration leaseDuration) {
        this.clock = clock;
        this.leaseDuration = leaseDuration;
        this.lastGood = clock.instant(); // the first attempts get one lease duration to succeed
    }

    synchronized void good() {
        lastGood = clock.instant();
        lastBad = null;
        lastBadCode = 0;
        lastBadMessage = null;
    }

    /** {@code code}: the API server's HTTP status, 0 when there was no answer. */
    synchronized void bad(int code, String message) {
        lastBad = clock.instant();
        lastBadCode = code;
        lastBadMessage = message;
    }

    synchronized boolean healthy() {
        return problem() == null;
    }

    /** Why this replica is not taking part in leader election, or null when it is. */
    synchronized String problem() {
        Instant now = clock.instant();
        boolean stale = Duration.between(lastGood, now).compareTo(leaseDuration) > 0;
        if (lastBad != null && lastBadCode == 403) {
            return "the API server forbids this replica's Lease request: " + lastBadMessage
                    + " (grant get, list, watch, create, update, patch, delete on leases.coordination.k8s.io in the"
                    + " release namespace)";
        }
        if (stale) {
            return "no successful Lease request for " + Duration.between(lastGood, now).toSeconds() + "s (lease duration "
                    + leaseDuration.toSeconds() + "s)" + (lastBadMessage == null ? "" : "; last error: " + lastBadMessage);
        }
        return null;
    }
}
