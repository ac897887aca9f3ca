package dev.sluice.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A cohort's pool: the sum of what its ClusterQueues lend, and how much of it is in use (each queue's usage
 * above its guaranteed quota). Kept up to date incrementally, so a fit check never walks the members.
 */
final class CohortState {
    final String name;
    final TreeMap<String, ClusterQueueState> members = new TreeMap<>();
    private final Map<FlavorResource, Long> lendable = new HashMap<>();
    private final Map<FlavorResource, Long> used = new HashMap<>();

    CohortState(String name) {
        this.name = name;
    }

    long lendable(FlavorResource fr) {
        return lendable.getOrDefault(fr, 0L);
    }

    long used(FlavorResource fr) {
        return used.getOrDefault(fr, 0L);
    }

    /** Unused quota of the pool (negative only if restored admissions over-use it). */
    long available(FlavorResource fr) {
        return lendable(fr) - used(fr);
    }

    void onUsageChange(FlavorResource fr, long guaranteed, long before, long after) {
        long delta = Math.max(0, after - guaranteed) - Math.max(0, before - guaranteed);
        if (delta != 0) {
            used.merge(fr, delta, Long::sum);
        }
    }

    /** Rebuilds the sums after membership or quotas change (rare). */
    void recompute() {
        lendable.clear();
        used.clear();
        for (ClusterQueueState cq : members.values()) {
            for (Map.Entry<FlavorResource, FlavorResourceQuota> q : cq.quotas().entrySet()) {
                lendable.merge(q.getKey(), q.getValue().lendable(), Long::sum);
            }
            for (Map.Entry<FlavorResource, Long> u : cq.usageView().entrySet()) {
                long over = Math.max(0, u.getValue() - cq.quota(u.getKey()).guaranteed());
                if (over != 0) {
                    used.merge(u.getKey(), over, Long::sum);
                }
            }
        }
    }

    /** Nominal quota and usage summed over members, sorted (for metrics). */
    CohortStatus status() {
        Map<FlavorResource, Long> nominal = new TreeMap<>();
        Map<FlavorResource, Long> usage = new TreeMap<>();
        for (ClusterQueueState cq : members.values()) {
            cq.quotas().forEach((fr, q) -> nominal.merge(fr, q.nominal(), Long::sum));
            cq.usageView().forEach((fr, u) -> usage.merge(fr, u, Long::sum));
        }
        return new CohortStatus(name, java.util.List.copyOf(members.keySet()), nominal, usage);
    }
}
