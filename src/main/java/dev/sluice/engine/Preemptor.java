package dev.sluice.engine;

import static dev.sluice.engine.PreemptionCandidates.ownEligible;

import dev.sluice.engine.PreemptionCandidates.Candidates;
import dev.sluice.engine.PreemptionCandidates.Others;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's classical preemption: find candidates the ClusterQueue's policies allow, order them, take them until
 * the preemptor fits, then give back (in reverse) those that are not needed, so the set stays minimal.
 */
final class Preemptor {

    record Target(WorkloadRecord workload, PreemptionReason reason, ClusterQueueState owner) {
    }

    private Preemptor() {
    }

    /**
     * Cheap upper bound of what the queue could hold of fr after preemption, so that a search that cannot
     * succeed is not run: its free room (which grows by at most what is removed), its own candidates, and,
     * only where targets() would look at other queues, per borrowing queue of the tree at most what it
     * borrows plus the one workload that ends its borrowing (capped by val, which keeps "bound >= val" exact).
     * Removing usage anywhere in the tree frees at most that much for the preemptor.
     */
    static long bound(WorkloadRecord wl, ClusterQueueState cq, FlavorResource fr, long val, FairSharing fs) {
        long bound = cq.available(fr);
        Set<FlavorResource> frs = Set.of(fr);
        PreemptionSpec policy = cq.spec.preemption();
        long own = 0;
        if (policy.withinClusterQueue() != WithinClusterQueue.Never) {
            for (WorkloadRecord c : cq.victimOrder) {
                if (ownEligible(wl, c, policy, frs)) {
                    own += c.usage.getOrDefault(fr, 0L);
                }
            }
        }
        bound += own;
        if (cq.parent == null || policy.reclaimWithinCohort() == ReclaimWithinCohort.Never) {
            return bound;
        }
        long nominal = cq.quota(fr).nominal();
        // In a deeper tree the hierarchical advantage may open other queues in any case.
        boolean othersSearched = fs.enabled() || policy.borrowPolicy() != BorrowWithinCohortPolicy.Never
                || cq.parent.parent != null || !cq.parent.childCohorts.isEmpty()
                || (cq.usage(fr) < nominal && cq.usage(fr) - own + val <= nominal);
        if (!othersSearched) {
            return bound;
        }
        if (cq.parent.parent == null && cq.parent.childCohorts.isEmpty()) {
            for (ClusterQueueState other : cq.parent.members.values()) {
                bound += othersPart(cq, other, fr, val, fs);
            }
        } else {
            long[] others = {0};
            ((CohortState) cq.root()).forEachQueue(other -> others[0] += othersPart(cq, other, fr, val, fs));
            bound += others[0];
        }
        return bound;
    }

    private static long othersPart(ClusterQueueState cq, ClusterQueueState other, FlavorResource fr, long val,
                                   FairSharing fs) {
        if (other == cq || !other.isBorrowing(fr)) {
            return 0;
        }
        long used = other.usage(fr);
        // Fair sharing takes from a queue while it borrows anything, so all its usage may go.
        return fs.enabled() ? used : Math.min(used, used - other.quota(fr).nominal() + val);
    }

    static List<Target> targets(WorkloadRecord wl, FlavorAssigner.Result assignment, ClusterQueueState cq,
                                FairSharing fs) {
        return targets(wl, assignment.usage(), assignment.needPreemption(), cq, fs);
    }

    /** The victims that make room for request, or none if the policies allow no such set. */
    static List<Target> targets(WorkloadRecord wl, Map<FlavorResource, Long> request, Set<FlavorResource> frs,
                                ClusterQueueState cq, FairSharing fs) {
        if (fs.enabled()) {
            return FairPreemptor.targets(wl, request, frs, cq, fs.strategies());
        }
        TreeReach reach = new TreeReach(cq, request);
        Candidates all = new Candidates(wl, cq, frs, reach, Others.ALL, Integer.MAX_VALUE);
        if (!all.hasNext()) {
            return List.of();
        }
        if (!all.hasOthers()) {
            return minimal(request, cq, frs, reach, all, true, null);
        }
        BorrowWithinCohortPolicy borrowPolicy = cq.spec.preemption().borrowPolicy();
        if (borrowPolicy != BorrowWithinCohortPolicy.Never) {
            int threshold = wl.priority();
            Integer max = cq.spec.preemption().maxPriorityThreshold();
            if (max != null && max < threshold) {
                threshold = max + 1;
            }
            Candidates filtered = underNominal(frs, cq) ? all
                    : new Candidates(wl, cq, frs, reach, Others.ALL, threshold);
            return minimal(request, cq, frs, reach, filtered, true, threshold);
        }
        if (underNominal(frs, cq)
                && withinNominalPossible(request, cq, new Candidates(wl, cq, frs, reach, Others.NONE, 0))) {
            List<Target> targets = minimal(request, cq, frs, reach, all, false, null);
            if (!targets.isEmpty()) {
                return targets;
            }
        }
        // Borrowing after preemption: only the own queue, and queues the preemptor has the advantage over.
        return minimal(request, cq, frs, reach, new Candidates(wl, cq, frs, reach, Others.ADVANTAGED, 0), true,
                null);
    }

    private static List<Target> minimal(Map<FlavorResource, Long> request, ClusterQueueState cq,
                                        Set<FlavorResource> frs, TreeReach reach, Candidates candidates,
                                        boolean allowBorrowing, Integer borrowBelowPriority) {
        List<Target> targets = new ArrayList<>();
        FlavorResource[] frsAsked = new FlavorResource[request.size()];
        long[] vals = new long[request.size()];
        int n = 0;
        for (Map.Entry<FlavorResource, Long> e : request.entrySet()) {
            frsAsked[n] = e.getKey();
            vals[n++] = e.getValue();
        }
        boolean fits = false;
        while (candidates.hasNext()) {
            ClusterQueueState owner = candidates.peekOwner();
            PreemptionReason reason = PreemptionReason.InClusterQueue;
            if (owner != cq) {
                // Earlier removals may have brought that queue (or a cohort between it and the preemptor) within
                // its quota: then nothing is left to reclaim there (removals only lower usage, so it stays so).
                if (!reach.reclaimable(owner, frs)) {
                    candidates.skipOwner();
                    continue;
                }
            }
            WorkloadRecord c = candidates.next();
            if (owner != cq) {
                reason = PreemptionReason.InCohortReclamation;
                // Over a queue it has the hierarchical advantage over, the preemptor may reclaim while borrowing.
                if (borrowBelowPriority != null && !reach.advantaged(owner)) {
                    if (c.priority() >= borrowBelowPriority) {
                        allowBorrowing = false;
                    } else {
                        reason = PreemptionReason.InCohortReclaimWhileBorrowing;
                    }
                }
            }
            owner.removeUsage(c.usage);
            targets.add(new Target(c, reason, owner));
            if (cq.fits(frsAsked, vals, allowBorrowing)) {
                fits = true;
                break;
            }
        }
        if (!fits) {
            restore(targets);
            return List.of();
        }
        // Give back, newest choice first (the last one is needed), whatever is not needed to fit.
        for (int i = targets.size() - 2; i >= 0; i--) {
            WorkloadRecord c = targets.get(i).workload();
            ClusterQueueState owner = targets.get(i).owner();
            owner.addUsage(c.usage);
            if (cq.fits(frsAsked, vals, allowBorrowing)) {
                targets.remove(i);
            } else {
                owner.removeUsage(c.usage);
            }
        }
        restore(targets);
        return targets;
    }

    private static void restore(List<Target> targets) {
        for (Target t : targets) {
            t.owner().addUsage(t.workload().usage);
        }
    }

    /** Without borrowing, the request must fit in nominal quota once the own candidates are gone. */
    private static boolean withinNominalPossible(Map<FlavorResource, Long> request, ClusterQueueState cq,
                                                 Candidates sameQueue) {
        Map<FlavorResource, Long> used = new HashMap<>();
        for (FlavorResource fr : request.keySet()) {
            used.put(fr, cq.usage(fr));
        }
        while (sameQueue.hasNext()) {
            WorkloadRecord c = sameQueue.next();
            for (FlavorResource fr : request.keySet()) {
                used.merge(fr, -c.usage.getOrDefault(fr, 0L), Long::sum);
            }
        }
        for (Map.Entry<FlavorResource, Long> e : request.entrySet()) {
            if (used.get(e.getKey()) + e.getValue() > cq.quota(e.getKey()).nominal()) {
                return false;
            }
        }
        return true;
    }

    private static boolean underNominal(Set<FlavorResource> frs, ClusterQueueState cq) {
        for (FlavorResource fr : frs) {
            if (cq.usage(fr) >= cq.quota(fr).nominal()) {
                return false;
            }
        }
        return true;
    }
}
