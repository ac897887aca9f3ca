package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Kueue's fair-sharing admission order (its fairSharingIterator): the next head is chosen by a tournament in its
 * cohort tree. Each cohort compares what each child nominates by the child's dominant resource share with that
 * head's usage added: a child not borrowing on the head's flavors first, then the lower share, then higher
 * priority, then earlier. A head whose preemptions were issued goes first (Sluice's rule, see the cycle).
 */
final class FairSharingTournament {
    private FairSharingTournament() {
    }

    /**
     * Removes and returns the next head of remaining (sorted by fallback). A queue without a cohort, or a waiting
     * preemptor, is taken in fallback order; else the tournament of the first head's tree decides.
     */
    static <E> E pop(List<E> remaining, Function<E, ClusterQueueState> cqOf, Function<E, Map<FlavorResource, Long>> usageOf,
                     Function<E, WorkloadRecord> workloadOf, Comparator<E> fallback) {
        E first = remaining.get(0);
        ClusterQueueState cq = cqOf.apply(first);
        if (cq.parent == null || workloadOf.apply(first).preempted) {
            return remaining.remove(0);
        }
        CohortState root = (CohortState) cq.root();
        Map<ClusterQueueState, E> byQueue = new HashMap<>();
        for (E e : remaining) {
            if (cqOf.apply(e).root() == root) {
                byQueue.put(cqOf.apply(e), e);
            }
        }
        // The share of each node on a head's path with that head admitted, keyed by the cohort comparing it.
        Map<E, Map<CohortState, DominantResourceShare>> shares = new HashMap<>();
        for (Map.Entry<ClusterQueueState, E> q : byQueue.entrySet()) {
            ClusterQueueState c = q.getKey();
            Map<FlavorResource, Long> usage = usageOf.apply(q.getValue());
            Map<CohortState, DominantResourceShare> atLevel = new HashMap<>();
            c.addUsage(usage); // a simulation, undone below
            QuotaNode n = c;
            while (n.parent != null) {
                atLevel.put(n.parent, DominantResourceShare.of(n));
                n = n.parent;
            }
            c.removeUsage(usage);
            shares.put(q.getValue(), atLevel);
        }
        E winner = tournament(root, byQueue, shares, usageOf, workloadOf, fallback);
        remaining.remove(winner);
        return winner;
    }

    private static <E> E tournament(CohortState cohort, Map<ClusterQueueState, E> byQueue,
                                    Map<E, Map<CohortState, DominantResourceShare>> shares,
                                    Function<E, Map<FlavorResource, Long>> usageOf,
                                    Function<E, WorkloadRecord> workloadOf, Comparator<E> fallback) {
        List<E> candidates = new ArrayList<>();
        for (CohortState child : cohort.childCohorts.values()) {
            E e = tournament(child, byQueue, shares, usageOf, workloadOf, fallback);
            if (e != null) {
                candidates.add(e);
            }
        }
        for (ClusterQueueState child : cohort.members.values()) {
            E e = byQueue.get(child);
            if (e != null) {
                candidates.add(e);
            }
        }
        E best = null;
        for (E e : candidates) {
            if (best == null || less(e, best, cohort, shares, usageOf, workloadOf, fallback)) {
                best = e;
            }
        }
        return best;
    }

    private static <E> boolean less(E a, E b, CohortState at, Map<E, Map<CohortState, DominantResourceShare>> shares,
                                    Function<E, Map<FlavorResource, Long>> usageOf,
                                    Function<E, WorkloadRecord> workloadOf, Comparator<E> fallback) {
        WorkloadRecord wa = workloadOf.apply(a);
        WorkloadRecord wb = workloadOf.apply(b);
        if (wa.preempted != wb.preempted) {
            return wa.preempted;
        }
        DominantResourceShare da = shares.get(a).get(at);
        DominantResourceShare db = shares.get(b).get(at);
        boolean aBorrows = da.isBorrowingOn(usageOf.apply(a));
        boolean bBorrows = db.isBorrowingOn(usageOf.apply(b));
        if (aBorrows != bBorrows) {
            return !aBorrows;
        }
        int c = DominantResourceShare.compare(da, db);
        if (c != 0) {
            return c < 0;
        }
        if (wa.priority() != wb.priority()) {
            return wa.priority() > wb.priority();
        }
        if (wa.queueTime != wb.queueTime) {
            return wa.queueTime < wb.queueTime;
        }
        return fallback.compare(a, b) < 0;
    }
}
