package dev.sluice.engine;

import java.util.Comparator;
import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which admitted workloads a preemptor may take, and in which order: Kueue's candidate rules per
 * withinClusterQueue and reclaimWithinCohort, and its ordering (evicted first, other queues before the own,
 * lower priority, most recently admitted).
 */
final class PreemptionCandidates {
    private PreemptionCandidates() {
    }

    /** Within one queue: already evicted first, lower priority, most recently admitted, uid, key. */
    static int compareInQueue(WorkloadRecord a, WorkloadRecord b) {
        if (a.evicted != b.evicted) {
            return a.evicted ? -1 : 1;
        }
        if (a.priority() != b.priority()) {
            return Integer.compare(a.priority(), b.priority());
        }
        long ta = a.admittedAt == null ? 0L : a.admittedAt;
        long tb = b.admittedAt == null ? 0L : b.admittedAt;
        if (ta != tb) {
            return Long.compare(tb, ta);
        }
        int c = a.spec.uid().compareTo(b.spec.uid());
        return c != 0 ? c : a.key().compareTo(b.key());
    }

    /** Already evicted first, other queues before the own, then as within a queue. */
    static Comparator<WorkloadRecord> candidateOrder(String ownQueue) {
        return (a, b) -> {
            if (a.evicted != b.evicted) {
                return a.evicted ? -1 : 1;
            }
            boolean ownA = a.clusterQueue.equals(ownQueue);
            boolean ownB = b.clusterQueue.equals(ownQueue);
            if (ownA != ownB) {
                return ownA ? 1 : -1;
            }
            return compareInQueue(a, b);
        };
    }

    static boolean ownEligible(WorkloadRecord wl, WorkloadRecord c, PreemptionSpec policy,
                                       Set<FlavorResource> frs) {
        if (c == wl || c.priority() > wl.priority()) {
            return false;
        }
        if (c.priority() == wl.priority() && !(policy.withinClusterQueue() == WithinClusterQueue.LowerOrNewerEqualPriority
                && wl.queueTime < c.queueTime)) {
            return false;
        }
        return usesAny(c, frs);
    }

    /** Which other queues' workloads a candidate set holds. */
    enum Others { NONE, ADVANTAGED, ALL }

    /**
     * Candidates per withinClusterQueue (own queue) and reclaimWithinCohort (queues of the tree above their quota
     * up to where they meet the preemptor's path when the search starts), in candidate order: a lazy merge of the
     * queues' ordered sets, so a search that needs few victims reads few. Other queues' workloads at or above
     * othersBelow are left out, unless the preemptor has the hierarchical advantage over them. Single use.
     */
    static final class Candidates implements Iterator<WorkloadRecord> {
        private final PriorityQueue<Cursor> cursors;
        private boolean hasOthers;

        Candidates(WorkloadRecord wl, ClusterQueueState cq, Set<FlavorResource> frs, TreeReach reach,
                   Others others, int othersBelow) {
            Comparator<WorkloadRecord> order = candidateOrder(cq.name);
            cursors = new PriorityQueue<>((a, b) -> order.compare(a.head, b.head));
            PreemptionSpec policy = cq.spec.preemption();
            if (policy.withinClusterQueue() != WithinClusterQueue.Never) {
                add(new Cursor(cq, cq.victimOrder.iterator(), c -> ownEligible(wl, c, policy, frs)));
            }
            if (others != Others.NONE && cq.parent != null
                    && policy.reclaimWithinCohort() != ReclaimWithinCohort.Never) {
                int policyBelow = policy.reclaimWithinCohort() == ReclaimWithinCohort.LowerPriority
                        ? wl.priority() : Integer.MAX_VALUE;
                int below = Math.min(othersBelow, policyBelow);
                for (ClusterQueueState other : reach.others()) {
                    if (!reach.reclaimable(other, frs)) {
                        continue;
                    }
                    boolean advantaged = reach.advantaged(other);
                    if (others == Others.ADVANTAGED && !advantaged) {
                        continue;
                    }
                    int limit = advantaged ? policyBelow : below;
                    hasOthers |= add(new Cursor(other, other.victimOrder.iterator(),
                            c -> c.priority() < limit && usesAny(c, frs)));
                }
            }
        }

        private boolean add(Cursor c) {
            if (c.advance()) {
                cursors.add(c);
                return true;
            }
            return false;
        }

        boolean hasOthers() {
            return hasOthers;
        }

        @Override
        public boolean hasNext() {
            return !cursors.isEmpty();
        }

        /** The owner of the workload that next() will return. */
        ClusterQueueState peekOwner() {
            return cursors.peek().owner;
        }

        @Override
        public WorkloadRecord next() {
            Cursor c = cursors.poll();
            WorkloadRecord out = c.head;
            if (c.advance()) {
                cursors.add(c);
            }
            return out;
        }

        /** Drops the rest of the next workload's queue (no longer above quota, so none of it is a candidate). */
        void skipOwner() {
            cursors.poll();
        }
    }

    private static final class Cursor {
        final ClusterQueueState owner;
        final Iterator<WorkloadRecord> it;
        final Predicate<WorkloadRecord> eligible;
        WorkloadRecord head;

        Cursor(ClusterQueueState owner, Iterator<WorkloadRecord> it, Predicate<WorkloadRecord> eligible) {
            this.owner = owner;
            this.it = it;
            this.eligible = eligible;
        }

        boolean advance() {
            while (it.hasNext()) {
                WorkloadRecord c = it.next();
                if (eligible.test(c)) {
                    head = c;
                    return true;
                }
            }
            head = null;
            return false;
        }
    }

    static boolean usesAny(WorkloadRecord c, Set<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (c.usage.containsKey(fr)) {
                return true;
            }
        }
        return false;
    }

    static boolean aboveQuotaAny(QuotaNode n, Set<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (n.aboveQuotaWith(fr, 0)) {
                return true;
            }
        }
        return false;
    }

    static boolean borrowingAny(ClusterQueueState cq, Set<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (cq.isBorrowing(fr)) {
                return true;
            }
        }
        return false;
    }
}
