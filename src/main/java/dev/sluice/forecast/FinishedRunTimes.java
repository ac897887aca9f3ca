package dev.sluice.forecast;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.EngineRebuild;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The run time of each finished Workload, recorded in the history once. Every capture looks at every cached Workload,
 * so a finished one is seen again at each capture: one whose finish is older than the horizon was looked at by an
 * earlier capture, and one finished since is told by its uid, which is kept only as long as it is newer than the
 * horizon. The horizon trails each capture by {@link #LATE}, for a Workload whose Finished write reaches the cache
 * after a capture that came later than the time written in it. (Before, a set of the last 20,000 uids counted was
 * kept: with a longer history every capture recorded every run again.)
 */
final class FinishedRunTimes {

    /** How late a Finished Workload may reach the cache after the time its condition says and still be counted. */
    static final long LATE = 5 * 60_000;

    private final RunTimeHistory history;
    /** uid of each Workload counted whose finish is at or after the horizon, and that time. */
    private final Map<String, Long> counted = new HashMap<>();
    private long horizonMillis = Long.MIN_VALUE;

    FinishedRunTimes(RunTimeHistory history) {
        this.history = history;
    }

    /** A cached Workload, during a capture: recorded when it finished and was not counted yet. */
    void look(Workload wl) {
        Condition finished = condition(wl, "Finished");
        if (finished == null || !"True".equals(finished.getStatus()) || wl.getMetadata().getUid() == null
                || wl.getSpec() == null || finished.getLastTransitionTime() == null) {
            return;
        }
        long finishedAt;
        try {
            finishedAt = Instant.parse(finished.getLastTransitionTime()).toEpochMilli();
        } catch (RuntimeException unreadable) {
            return; // not counted
        }
        if (finishedAt < horizonMillis || counted.putIfAbsent(wl.getMetadata().getUid(), finishedAt) != null) {
            return;
        }
        Condition reserved = condition(wl, "QuotaReserved");
        if (reserved == null || reserved.getLastTransitionTime() == null) {
            return;
        }
        try {
            history.record(wl.getMetadata().getNamespace(), wl.getSpec().getQueueName(),
                    wl.getSpec().getPriority() == null ? 0 : wl.getSpec().getPriority(),
                    finishedAt - EngineRebuild.reservedAt(wl));
        } catch (RuntimeException ignored) {
            // an unreadable time: not counted
        }
    }

    /** The capture at {@code nowMillis} has looked at every cached Workload. */
    void captured(long nowMillis) {
        horizonMillis = Math.max(horizonMillis, nowMillis - LATE);
        long horizon = horizonMillis;
        counted.values().removeIf(at -> at < horizon);
    }

    /** Workloads remembered as counted (those finished since the horizon). */
    int remembered() {
        return counted.size();
    }

    static Condition condition(Workload wl, String type) {
        if (wl.getStatus() == null || wl.getStatus().getConditions() == null) {
            return null;
        }
        for (Condition c : wl.getStatus().getConditions()) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }
}
