package dev.sluice.controller.queues;

import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.CohortStatus;
import dev.sluice.api.v1beta2.FairSharingStatus;
import dev.sluice.controller.session.Session;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Cohort status: {@code status.fairSharing.weightedShare} while fair sharing is on, nothing (cleared) while it is off,
 * as Kueue's Cohort controller writes it; and the {@code kueue_cohort_weighted_share} gauge. Written only when it
 * differs from what the object shows, by JSON patch with the object's resourceVersion (a conflict waits for the
 * next pass, when the cache has caught up).
 */
public final class CohortStatusSync {

    private final Session s;
    /** Per Cohort, the share and resourceVersion the last pass saw. */
    private final Map<String, Seen> seen = new java.util.concurrent.ConcurrentHashMap<>();
    private Map<String, Long> lastShares = Map.of();

    private record Seen(Long share, String resourceVersion) {
    }

    public CohortStatusSync(Session session) {
        this.s = session;
    }

    public void sync() {
        Map<String, Long> shares = new TreeMap<>();
        Set<String> present = new HashSet<>();
        for (Cohort cohort : s.cache.list(s.cache.cohorts)) {
            String name = cohort.getMetadata().getName();
            present.add(name);
            Long share = s.fairSharing.enabled() ? s.engine.cohortWeightedShare(name).orElse(0) : null;
            if (share != null) {
                shares.put(name, share);
            }
            Seen now = new Seen(share, cohort.getMetadata().getResourceVersion());
            if (now.equals(seen.put(name, now))) {
                continue;
            }
            CohortStatus next = cohort.getStatus() == null ? new CohortStatus() : Serialization.clone(cohort.getStatus());
            next.setFairSharing(fairSharing(share));
            if (Objects.equals(json(cohort.getStatus() == null ? new CohortStatus() : cohort.getStatus()), json(next))) {
                continue;
            }
            Cohort copy = Serialization.clone(cohort);
            copy.setStatus(next);
            String key = "cohort/" + name;
            s.lanes.latest(key, () -> {
                try {
                    s.writes.queueStatus(cohort, copy, cohort.getStatus(), next);
                } catch (KubernetesClientException e) {
                    seen.remove(name); // not written: the next pass builds it again
                    s.failures.failed(cohort, "cohorts/status", "patch", "write the status of Cohort " + name, e);
                }
            });
        }
        seen.keySet().retainAll(present);
        if (!shares.equals(lastShares)) {
            lastShares = shares;
            s.metrics.cohortSharesChanged(gaugeValues(shares));
        }
    }

    /** Kueue's status.fairSharing for a share, or none (fair sharing off). */
    static FairSharingStatus fairSharing(Long share) {
        if (share == null) {
            return null;
        }
        FairSharingStatus status = new FairSharingStatus();
        status.setWeightedShare(share);
        return status;
    }

    /**
     * Shares as the gauges report them: a zero weight that borrows (the largest share, Long.MAX_VALUE in status) is
     * NaN, as Kueue reports it.
     */
    static Map<String, Double> gaugeValues(Map<String, Long> shares) {
        Map<String, Double> out = new LinkedHashMap<>();
        shares.forEach((name, share) -> out.put(name, share == Long.MAX_VALUE ? Double.NaN : share.doubleValue()));
        return out;
    }

    private static String json(Object o) {
        return Serialization.asJson(o);
    }
}
