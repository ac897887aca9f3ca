package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's classical preemption: find candidates the ClusterQueue's policies allow, order them, take them until
 * the preemptor fits, then give back (in reverse) those that are not needed, so the set stays minimal.
 */
final class Preemptor {

    record Target(WorkloadRecord workload, PreemptionReason reason) {
    }

    /** Already evicted first, other queues before the own, lower priority, most recently admitted, uid, key. */
    static Comparator<WorkloadRecord> candidateOrder(String ownQueue) {
        return Comparator.comparing((WorkloadRecord w) -> !w.evicted)
                .thenComparing(w -> w.clusterQueue.equals(ownQueue))
                .thenComparingInt(WorkloadRecord::priority)
                .thenComparing(w -> -(w.admittedAt == null ? 0L : w.admittedAt))
                .thenComparing(w -> w.spec.uid())
                .thenComparing(WorkloadRecord::key);
    }

    private Preemptor() {
    }

    /** Whether preemption could make room for val of fr alone (Kueue's preemption oracle, simulated). */
    static boolean mayFree(WorkloadRecord wl, ClusterQueueState cq, FlavorResource fr, long val) {
        // Cheap bound first: another queue gives back at most what it borrows plus the one workload that ends
        // its borrowing; if even that cannot make room, skip the simulation.
        long bound = cq.available(fr);
        Map<String, long[]> perQueue = new java.util.HashMap<>();
        for (WorkloadRecord c : candidates(wl, cq, Set.of(fr))) {
            long u = c.usage.getOrDefault(fr, 0L);
            if (c.clusterQueue.equals(cq.name)) {
                bound += u;
            } else {
                long[] sumMax = perQueue.computeIfAbsent(c.clusterQueue, k -> new long[2]);
                sumMax[0] += u;
                sumMax[1] = Math.max(sumMax[1], u);
            }
        }
        for (Map.Entry<String, long[]> e : perQueue.entrySet()) {
            ClusterQueueState other = cq.cohort.members.get(e.getKey());
            long borrowed = Math.max(0, other.usage(fr) - other.quota(fr).nominal());
            bound += Math.min(e.getValue()[0], borrowed + e.getValue()[1]);
        }
        return bound >= val && !targets(wl, Map.of(fr, val), Set.of(fr), cq).isEmpty();
    }

    static List<Target> targets(WorkloadRecord wl, FlavorAssigner.Result assignment, ClusterQueueState cq) {
        return targets(wl, assignment.usage(), assignment.needPreemption(), cq);
    }

    /** The victims that make room for request, or none if the policies allow no such set. */
    static List<Target> targets(WorkloadRecord wl, Map<FlavorResource, Long> request, Set<FlavorResource> frs,
                                ClusterQueueState cq) {
        List<WorkloadRecord> candidates = candidates(wl, cq, frs);
        if (candidates.isEmpty()) {
            return List.of();
        }
        candidates.sort(candidateOrder(cq.name));
        List<WorkloadRecord> sameQueue = new ArrayList<>();
        for (WorkloadRecord c : candidates) {
            if (c.clusterQueue.equals(cq.name)) {
                sameQueue.add(c);
            }
        }
        if (sameQueue.size() == candidates.size()) {
            return minimal(request, cq, frs, candidates, true, null);
        }
        BorrowWithinCohortPolicy borrowPolicy = cq.spec.preemption().borrowPolicy();
        if (borrowPolicy != BorrowWithinCohortPolicy.Never) {
            int threshold = wl.priority();
            Integer max = cq.spec.preemption().maxPriorityThreshold();
            if (max != null && max < threshold) {
                threshold = max + 1;
            }
            if (!underNominal(frs, cq)) {
                List<WorkloadRecord> filtered = new ArrayList<>();
                for (WorkloadRecord c : candidates) {
                    if (c.clusterQueue.equals(cq.name) || c.priority() < threshold) {
                        filtered.add(c);
                    }
                }
                candidates = filtered;
            }
            return minimal(request, cq, frs, candidates, true, threshold);
        }
        if (underNominal(frs, cq) && withinNominalPossible(request, cq, sameQueue)) {
            List<Target> targets = minimal(request, cq, frs, candidates, false, null);
            if (!targets.isEmpty()) {
                return targets;
            }
        }
        return minimal(request, cq, frs, sameQueue, true, null);
    }

    /** Candidates per withinClusterQueue (own queue) and reclaimWithinCohort (borrowing queues of the cohort). */
    static List<WorkloadRecord> candidates(WorkloadRecord wl, ClusterQueueState cq, Set<FlavorResource> frs) {
        List<WorkloadRecord> out = new ArrayList<>();
        PreemptionSpec policy = cq.spec.preemption();
        int priority = wl.priority();
        if (policy.withinClusterQueue() != WithinClusterQueue.Never) {
            boolean sameIfNewer = policy.withinClusterQueue() == WithinClusterQueue.LowerOrNewerEqualPriority;
            for (WorkloadRecord c : cq.admitted.values()) {
                if (c == wl || c.priority() > priority) {
                    continue;
                }
                if (c.priority() == priority && !(sameIfNewer && wl.queueTime < c.queueTime)) {
                    continue;
                }
                if (usesAny(c, frs)) {
                    out.add(c);
                }
            }
        }
        if (cq.cohort != null && policy.reclaimWithinCohort() != ReclaimWithinCohort.Never) {
            boolean onlyLower = policy.reclaimWithinCohort() == ReclaimWithinCohort.LowerPriority;
            for (ClusterQueueState other : cq.cohort.members.values()) {
                if (other == cq || !borrowingAny(other, frs)) {
                    continue;
                }
                for (WorkloadRecord c : other.admitted.values()) {
                    if (onlyLower && c.priority() >= priority) {
                        continue;
                    }
                    if (usesAny(c, frs)) {
                        out.add(c);
                    }
                }
            }
        }
        return out;
    }

    private static List<Target> minimal(Map<FlavorResource, Long> request, ClusterQueueState cq,
                                        Set<FlavorResource> frs, List<WorkloadRecord> candidates,
                                        boolean allowBorrowing, Integer borrowBelowPriority) {
        List<Target> targets = new ArrayList<>();
        boolean fits = false;
        for (WorkloadRecord c : candidates) {
            ClusterQueueState owner = owner(cq, c);
            PreemptionReason reason = PreemptionReason.InClusterQueue;
            if (owner != cq) {
                // Earlier removals may have ended that queue's borrowing: then nothing is left to reclaim.
                if (!borrowingAny(owner, frs)) {
                    continue;
                }
                reason = PreemptionReason.InCohortReclamation;
                if (borrowBelowPriority != null) {
                    if (c.priority() >= borrowBelowPriority) {
                        allowBorrowing = false;
                    } else {
                        reason = PreemptionReason.InCohortReclaimWhileBorrowing;
                    }
                }
            }
            owner.removeUsage(c.usage);
            targets.add(new Target(c, reason));
            if (cq.fits(request, allowBorrowing)) {
                fits = true;
                break;
            }
        }
        if (!fits) {
            restore(cq, targets);
            return List.of();
        }
        // Give back, newest choice first (the last one is needed), whatever is not needed to fit.
        for (int i = targets.size() - 2; i >= 0; i--) {
            WorkloadRecord c = targets.get(i).workload();
            ClusterQueueState owner = owner(cq, c);
            owner.addUsage(c.usage);
            if (cq.fits(request, allowBorrowing)) {
                targets.remove(i);
            } else {
                owner.removeUsage(c.usage);
            }
        }
        restore(cq, targets);
        return targets;
    }

    private static void restore(ClusterQueueState cq, List<Target> targets) {
        for (Target t : targets) {
            owner(cq, t.workload()).addUsage(t.workload().usage);
        }
    }

    private static ClusterQueueState owner(ClusterQueueState cq, WorkloadRecord c) {
        if (c.clusterQueue.equals(cq.name)) {
            return cq;
        }
        return cq.cohort.members.get(c.clusterQueue);
    }

    private static boolean usesAny(WorkloadRecord c, Set<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (c.usage.containsKey(fr)) {
                return true;
            }
        }
        return false;
    }

    private static boolean borrowingAny(ClusterQueueState cq, Set<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (cq.isBorrowing(fr)) {
                return true;
            }
        }
        return false;
    }

    /** Without borrowing, the request must fit in nominal quota once the own candidates are gone. */
    private static boolean withinNominalPossible(Map<FlavorResource, Long> request, ClusterQueueState cq,
                                                 List<WorkloadRecord> sameQueue) {
        for (Map.Entry<FlavorResource, Long> e : request.entrySet()) {
            long used = cq.usage(e.getKey());
            for (WorkloadRecord c : sameQueue) {
                used -= c.usage.getOrDefault(e.getKey(), 0L);
            }
            if (used + e.getValue() > cq.quota(e.getKey()).nominal()) {
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
