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
 *
 * <p>A flat cohort (no parent, no child cohorts) is the common case and costs no maps: every other queue meets the
 * preemptor at the cohort, and the advantage is the request fitting the preemptor's nominal quota.
 */
final class TreeReach {
    private final ClusterQueueState cq;
    private final Map<FlavorResource, Long> request;
    private final boolean flat;
    /** The preemptor's path: itself at 0, its cohort at 1, and so on to the root; null while flat. */
    private Map<QuotaNode, Integer> level;
    /** The level of the lowest node of the path whose quota holds the request; MAX_VALUE if none; -1 unknown. */
    private int fitLevel = -1;
    /** Lookup only. */
    private Map<ClusterQueueState, CohortState> lcaOf;
    private List<ClusterQueueState> others;

    TreeReach(ClusterQueueState cq, Map<FlavorResource, Long> request) {
        this.cq = cq;
        this.request = request;
        CohortState p = cq.parent;
        this.flat = p == null || (p.parent == null && p.childCohorts.isEmpty());
    }

    private int fitLevel() {
        if (fitLevel >= 0) {
            return fitLevel;
        }
        int fit = Integer.MAX_VALUE;
        Map<FlavorResource, Long> remaining = new HashMap<>(request);
        int i = 0;
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
        fitLevel = fit;
        return fit;
    }

    /** The other ClusterQueues of the tree, in name order per level (a flat cohort: its members). */
    Iterable<ClusterQueueState> others() {
        if (cq.parent == null) {
            return List.of();
        }
        if (flat) {
            return cq.parent.members.values();
        }
        if (others == null) {
            others = new ArrayList<>();
            ((CohortState) cq.root()).forEachQueue(others::add);
        }
        return others;
    }

    private int lcaLevel(ClusterQueueState other) {
        if (flat) {
            return 1;
        }
        return level().get(lca(other));
    }

    private Map<QuotaNode, Integer> level() {
        if (level == null) {
            level = new HashMap<>();
            int i = 0;
            for (QuotaNode n = cq; n != null; n = n.parent) {
                level.put(n, i++);
            }
        }
        return level;
    }

    private CohortState lca(ClusterQueueState other) {
        if (flat) {
            return cq.parent;
        }
        if (lcaOf == null) {
            lcaOf = new HashMap<>();
        }
        return lcaOf.computeIfAbsent(other, o -> {
            Map<QuotaNode, Integer> path = level();
            for (CohortState n = o.parent; n != null; n = n.parent) {
                if (path.containsKey(n)) {
                    return n;
                }
            }
            throw new IllegalStateException("ClusterQueue " + o.name + " is not in the tree of " + cq.name);
        });
    }

    /** Whether the preemptor's request fits a subtree below where it meets other's queue. */
    boolean advantaged(ClusterQueueState other) {
        return fitLevel() < lcaLevel(other);
    }

    /** Whether other's workloads may be reclaimed now: it and its cohorts below the meeting point exceed quota. */
    boolean reclaimable(ClusterQueueState other, Set<FlavorResource> frs) {
        if (other == cq || !PreemptionCandidates.borrowingAny(other, frs)) {
            return false;
        }
        if (flat) {
            return true;
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
