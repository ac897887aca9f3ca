package dev.sluice.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Kueue's resource node, shared by ClusterQueues and cohorts: a node's own quotas, its subtree quota (its own
 * nominal quota plus what its children lend it, within their lending limits) and the usage counted against that
 * subtree quota (for a ClusterQueue its usage; for a cohort what its children use beyond their local quota).
 *
 * <p>A node keeps its local quota (subtree quota minus lending limit) to its subtree; the rest is stored in the
 * parent. Usage beyond the local quota climbs to the parent, so every level's sums stay exact incrementally.
 */
abstract class QuotaNode {
    final String name;
    /** The cohort this node takes quota from; null at a root (or where a cycle cut the link). */
    CohortState parent;
    final Map<FlavorResource, FlavorResourceQuota> quotas = new HashMap<>();
    final Map<FlavorResource, Long> subtreeQuota = new HashMap<>();
    final Map<FlavorResource, Long> usage = new HashMap<>();

    QuotaNode(String name) {
        this.name = name;
    }

    /** The quota of an (flavor, resource) the node does not list. */
    abstract FlavorResourceQuota missingQuota();

    FlavorResourceQuota quota(FlavorResource fr) {
        FlavorResourceQuota q = quotas.get(fr);
        return q != null ? q : missingQuota();
    }

    long subtreeQuota(FlavorResource fr) {
        return subtreeQuota.getOrDefault(fr, 0L);
    }

    long usage(FlavorResource fr) {
        return usage.getOrDefault(fr, 0L);
    }

    Map<FlavorResource, Long> usageView() {
        return Collections.unmodifiableMap(usage);
    }

    /** Quota visible only to this subtree (the lending limit keeps it from the parent). */
    long localQuota(FlavorResource fr) {
        Long lendingLimit = quota(fr).lendingLimit();
        return lendingLimit == null ? 0 : Math.max(0, subtreeQuota(fr) - lendingLimit);
    }

    long localAvailable(FlavorResource fr) {
        return Math.max(0, localQuota(fr) - usage(fr));
    }

    /** What this node can still take of fr now: its local room plus what its ancestors can give it. */
    long available(FlavorResource fr) {
        long sub = subtreeQuota(fr);
        long used = usage(fr);
        if (parent == null) {
            return Math.max(0, sub - used);
        }
        FlavorResourceQuota q = quota(fr);
        Long lendingLimit = q.lendingLimit();
        long local = lendingLimit == null ? 0 : Math.max(0, sub - lendingLimit);
        long fromParent = Math.max(0, parent.available(fr));
        Long borrowingLimit = q.borrowingLimit();
        if (borrowingLimit != null) {
            long storedInParent = sub - local;
            long usedInParent = Math.max(0, used - local);
            fromParent = Math.min(fromParent, Math.max(0, storedInParent - usedInParent + borrowingLimit));
        }
        return Math.max(0, local - used) + fromParent;
    }

    /** The most this node could ever hold of fr (everything else idle), within every borrowing limit. */
    long potentialAvailable(FlavorResource fr) {
        if (parent == null) {
            return subtreeQuota(fr);
        }
        long potential = localQuota(fr) + parent.potentialAvailable(fr);
        Long borrowingLimit = quota(fr).borrowingLimit();
        if (borrowingLimit != null) {
            potential = Math.min(potential, subtreeQuota(fr) + borrowingLimit);
        }
        return potential;
    }

    /** Whether val more of fr would take the node above its subtree quota. */
    boolean aboveQuotaWith(FlavorResource fr, long val) {
        return usage(fr) + val > subtreeQuota(fr);
    }

    void addUsage(FlavorResource fr, long val) {
        long localAvailable = localAvailable(fr);
        put(fr, usage(fr) + val);
        if (parent != null && val > localAvailable) {
            parent.addUsage(fr, val - localAvailable);
        }
    }

    void removeUsage(FlavorResource fr, long val) {
        long storedInParent = usage(fr) - localQuota(fr);
        put(fr, usage(fr) - val);
        if (storedInParent > 0 && parent != null) {
            parent.removeUsage(fr, Math.min(val, storedInParent));
        }
    }

    private void put(FlavorResource fr, long v) {
        if (v == 0) {
            usage.remove(fr);
        } else {
            usage.put(fr, v);
        }
    }

    /** What this node adds to its parent's subtree quota and usage: all beyond its local quota. */
    void accumulateInto(CohortState p) {
        for (Map.Entry<FlavorResource, Long> e : subtreeQuota.entrySet()) {
            long lent = e.getValue() - localQuota(e.getKey());
            if (lent != 0) {
                p.subtreeQuota.merge(e.getKey(), lent, Long::sum);
            }
        }
        for (Map.Entry<FlavorResource, Long> e : usage.entrySet()) {
            long above = Math.max(0, e.getValue() - localQuota(e.getKey()));
            if (above != 0) {
                p.usage.merge(e.getKey(), above, Long::sum);
            }
        }
    }

    /** The node's place in its tree, root first, as Kueue names it in preemption messages: "/root/.../name". */
    String path() {
        StringBuilder path = new StringBuilder();
        for (QuotaNode n = this; n != null; n = n.parent) {
            path.insert(0, n.name).insert(0, '/');
        }
        return path.toString();
    }

    /** The root of this node's tree (itself if it has no parent). */
    QuotaNode root() {
        QuotaNode n = this;
        while (n.parent != null) {
            n = n.parent;
        }
        return n;
    }
}
