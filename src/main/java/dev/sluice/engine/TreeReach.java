package dev.sluice.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the other ClusterQueues of a preemptor's cohort tree stand relative to it, for one victim search (Kueue's
 * hierarchical reclaim): another queue's workloads may be reclaimed while that queue, and every cohort between it
 * and the lowest cohort it shares with the preemptor, is above its quota; and the preemptor has the hierarchical
 * advantage over a queue it meets above the lowest node of its own path whose quota holds the request.
 */
final class TreeReach {
    private final ClusterQueueState cq;
    /** The preemptor's path: itself at 0, its cohort at 1, and so on to the root. */
    private final Map<QuotaNode, Integer> level = new HashMap<>();
    /** The level of the lowest node of the path whose quota holds the request; MAX_VALUE if none. */
    private final int fitLevel;
    /** Lookup only. */
    private final Map<ClusterQueueState, CohortState> lcaOf = new HashMap<>();
    private List<ClusterQueueState> others;

    TreeReach(ClusterQueueState cq, Map<FlavorResource, Long> request) {
        this.cq = cq;
        int i = 0;
        for (QuotaNode n = cq; n != null; n = n.parent) {
            level.put(n, i++);
        }
        int fit = Integer.MAX_VALUE;
        Map<FlavorResource, Long> remaining = new HashMap<>(request);
        i = 0;
        for (QuotaNode n = cq; n != null && fit == Integer.MAX_VALUE; n = n.parent, i++) {
            boolean fits = true;
            for (Map.Entry<FlavorResource, Long> e : remaining.entrySet()) {
                FlavorResource fr = e.getKey();
                if (n.subtreeQuota(fr) < n.usage(fr) + e.getValue()) {
                    fits = false;
                }
                e.setValue(Math.max(0, e.getValue() - n.localAvailable(fr)));
            }
            if (fits) {
                fit = i;
            }
        }
        this.fitLevel = fit;
    }

    /** The other ClusterQueues of the tree, in name order per level (a flat cohort: its members). */
    List<ClusterQueueState> others() {
        if (others == null) {
            others = new ArrayList<>();
            if (cq.parent != null) {
                ((CohortState) cq.root()).forEachQueue(q -> {
                    if (q != cq) {
                        others.add(q);
                    }
                });
            }
        }
        return others;
    }

    private CohortState lca(ClusterQueueState other) {
        return lcaOf.computeIfAbsent(other, o -> {
            for (CohortState n = o.parent; n != null; n = n.parent) {
                if (level.containsKey(n)) {
                    return n;
                }
            }
            throw new IllegalStateException("ClusterQueue " + o.name + " is not in the tree of " + cq.name);
        });
    }

    /** Whether the preemptor's request fits a subtree below where it meets other's queue. */
    boolean advantaged(ClusterQueueState other) {
        return fitLevel < level.get(lca(other));
    }

    /** Whether other's workloads may be reclaimed now: it and its cohorts below the meeting point exceed quota. */
    boolean reclaimable(ClusterQueueState other, Set<FlavorResource> frs) {
        if (!PreemptionCandidates.borrowingAny(other, frs)) {
            return false;
        }
        CohortState meet = lca(other);
        for (CohortState n = other.parent; n != meet; n = n.parent) {
            if (!PreemptionCandidates.aboveQuotaAny(n, frs)) {
                return false;
            }
        }
        return true;
    }
}
