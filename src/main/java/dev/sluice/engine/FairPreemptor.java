package dev.sluice.engine;

import dev.sluice.engine.Preemptor.Target;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's fair-sharing preemption (pkg/scheduler/preemption/fairsharing): with the preemptor's usage simulated, the
 * target queue is found by walking down from the root to the child with the highest share; a workload of another
 * queue is taken if the strategy holds between the shares of the two almost-least-common ancestors (the children of
 * the lowest cohort both share). Own lower-priority workloads and, while the preemptor stays within nominal quota,
 * any candidate are taken without the strategy. The first strategy runs first; the second retries the rest.
 */
final class FairPreemptor {
    private final WorkloadRecord wl;
    private final ClusterQueueState cq;
    private final Map<FlavorResource, Long> request;
    private final Set<FlavorResource> frs;
    private final List<FairSharingStrategy> strategies;
    private final Set<CohortState> preemptorPath = new HashSet<>();
    /** Candidates per queue, in candidate order; a queue's list is consumed from its head. */
    private final Map<ClusterQueueState, ArrayDeque<WorkloadRecord>> byQueue = new LinkedHashMap<>();
    private final Set<ClusterQueueState> prunedQueues = new HashSet<>();
    private final Set<CohortState> prunedCohorts = new HashSet<>();
    /** The queues candidates come from, by name. Lookup only. */
    private final Map<String, ClusterQueueState> owners = new java.util.HashMap<>();

    private FairPreemptor(WorkloadRecord wl, ClusterQueueState cq, Map<FlavorResource, Long> request,
                          Set<FlavorResource> frs, List<FairSharingStrategy> strategies) {
        this.wl = wl;
        this.cq = cq;
        this.request = request;
        this.frs = frs;
        this.strategies = strategies;
        for (CohortState n = cq.parent; n != null; n = n.parent) {
            preemptorPath.add(n);
        }
    }

    static List<Target> targets(WorkloadRecord wl, Map<FlavorResource, Long> request, Set<FlavorResource> frs,
                                ClusterQueueState cq, List<FairSharingStrategy> strategies) {
        return new FairPreemptor(wl, cq, request, frs, strategies).run();
    }

    private List<Target> run() {
        List<WorkloadRecord> candidates = candidates();
        if (candidates.isEmpty()) {
            return List.of();
        }
        cq.addUsage(request); // the shares include the incoming workload
        List<Target> targets = new ArrayList<>();
        List<WorkloadRecord> retry = new ArrayList<>();
        boolean fits = first(candidates, strategies.get(0), targets, retry);
        if (!fits && strategies.size() > 1) {
            fits = second(retry, targets);
        }
        cq.removeUsage(request);
        if (!fits) {
            restore(targets);
            return List.of();
        }
        // Give back, newest choice first (the last one is needed), whatever is not needed to fit.
        for (int i = targets.size() - 2; i >= 0; i--) {
            Target t = targets.get(i);
            t.owner().addUsage(t.workload().usage);
            if (cq.fits(request, true)) {
                targets.remove(i);
            } else {
                t.owner().removeUsage(t.workload().usage);
            }
        }
        restore(targets);
        return targets;
    }

    /** Kueue's findCandidates: own per withinClusterQueue, queues of the tree borrowing in frs per reclaim. */
    private List<WorkloadRecord> candidates() {
        List<WorkloadRecord> out = new ArrayList<>();
        PreemptionSpec policy = cq.spec.preemption();
        if (policy.withinClusterQueue() != WithinClusterQueue.Never) {
            for (WorkloadRecord c : cq.victimOrder) {
                if (PreemptionCandidates.ownEligible(wl, c, policy, frs)) {
                    out.add(c);
                }
            }
        }
        if (cq.parent != null && policy.reclaimWithinCohort() != ReclaimWithinCohort.Never) {
            ((CohortState) cq.root()).forEachQueue(other -> {
                if (other == cq || !PreemptionCandidates.borrowingAny(other, frs)) {
                    return;
                }
                owners.put(other.name, other);
                for (WorkloadRecord c : other.victimOrder) {
                    boolean allowed = policy.reclaimWithinCohort() == ReclaimWithinCohort.Any
                            || c.priority() < wl.priority();
                    if (allowed && PreemptionCandidates.usesAny(c, frs)) {
                        out.add(c);
                    }
                }
            });
        }
        out.sort(PreemptionCandidates.candidateOrder(cq.name));
        return out;
    }

    private void group(List<WorkloadRecord> candidates) {
        byQueue.clear();
        prunedQueues.clear();
        prunedCohorts.clear();
        for (WorkloadRecord c : candidates) {
            byQueue.computeIfAbsent(ownerOf(c), k -> new ArrayDeque<>()).add(c);
        }
    }

    private ClusterQueueState ownerOf(WorkloadRecord c) {
        return c.clusterQueue.equals(cq.name) ? cq : owners.get(c.clusterQueue);
    }

    private boolean first(List<WorkloadRecord> candidates, FairSharingStrategy strategy, List<Target> targets,
                          List<WorkloadRecord> retry) {
        group(candidates);
        boolean withinNominal = withinNominal();
        ClusterQueueState target;
        while ((target = next()) != null) {
            ArrayDeque<WorkloadRecord> queue = byQueue.get(target);
            if (target == cq || withinNominal) {
                WorkloadRecord c = queue.poll();
                take(c, target, target == cq ? PreemptionReason.InClusterQueue
                        : PreemptionReason.InCohortReclamation, targets);
                if (fitsForFairSharing()) {
                    return true;
                }
                continue;
            }
            DominantResourceShare preemptorNew = DominantResourceShare.of(almostLca(cq, target));
            DominantResourceShare targetOld = DominantResourceShare.of(almostLca(target, target));
            if (Double.isInfinite(preemptorNew.preciseWeightedShare())
                    && !Double.isInfinite(targetOld.preciseWeightedShare())) {
                retry.addAll(queue); // no candidate here can pass; rule S2-b may still
                queue.clear();
                continue;
            }
            while (!queue.isEmpty()) {
                WorkloadRecord c = queue.poll();
                target.removeUsage(c.usage);
                DominantResourceShare targetNew = DominantResourceShare.of(almostLca(target, target));
                target.addUsage(c.usage);
                if (passes(strategy, preemptorNew, targetOld, targetNew)) {
                    take(c, target, PreemptionReason.InCohortFairSharing, targets);
                    if (fitsForFairSharing()) {
                        return true;
                    }
                    break; // the shares changed: the next target may be another queue
                }
                retry.add(c);
            }
        }
        return false;
    }

    /** Rule S2-b on what the first strategy left: at most one workload per queue, in the order of the shares. */
    private boolean second(List<WorkloadRecord> retry, List<Target> targets) {
        group(retry);
        ClusterQueueState target;
        while ((target = next()) != null) {
            DominantResourceShare preemptorNew = DominantResourceShare.of(almostLca(cq, target));
            DominantResourceShare targetOld = DominantResourceShare.of(almostLca(target, target));
            WorkloadRecord c = byQueue.get(target).poll();
            if (passes(FairSharingStrategy.LessThanInitialShare, preemptorNew, targetOld, null)) {
                take(c, target, target == cq ? PreemptionReason.InClusterQueue
                        : PreemptionReason.InCohortFairSharing, targets);
                if (fitsForFairSharing()) {
                    return true;
                }
            }
            prunedQueues.add(target);
        }
        return false;
    }

    private static boolean passes(FairSharingStrategy s, DominantResourceShare preemptorNew,
                                  DominantResourceShare targetOld, DominantResourceShare targetNew) {
        return switch (s) {
            case LessThanOrEqualToFinalShare -> DominantResourceShare.compare(preemptorNew, targetNew) <= 0;
            case LessThanInitialShare -> DominantResourceShare.compare(preemptorNew, targetOld) < 0;
        };
    }

    private void take(WorkloadRecord c, ClusterQueueState owner, PreemptionReason reason, List<Target> targets) {
        owner.removeUsage(c.usage);
        targets.add(new Target(c, reason, owner));
    }

    private boolean fitsForFairSharing() {
        cq.removeUsage(request);
        boolean fits = cq.fits(request, true);
        cq.addUsage(request);
        return fits;
    }

    /** Kueue's FairSharingPreemptWithinNominal: the preemptor (incoming included) within nominal on frs. */
    private boolean withinNominal() {
        for (FlavorResource fr : frs) {
            if (cq.usage(fr) > cq.quota(fr).nominal()) {
                return false;
            }
        }
        return true;
    }

    private static void restore(List<Target> targets) {
        for (Target t : targets) {
            t.owner().addUsage(t.workload().usage);
        }
    }

    /** Kueue's TargetClusterQueueOrdering: the next queue to take from, or null when the root is pruned. */
    private ClusterQueueState next() {
        if (cq.parent == null) {
            return !prunedQueues.contains(cq) && hasWorkload(cq) ? cq : null;
        }
        CohortState root = (CohortState) cq.root();
        while (!prunedCohorts.contains(root)) {
            ClusterQueueState t = nextTarget(root);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    private boolean hasWorkload(ClusterQueueState q) {
        ArrayDeque<WorkloadRecord> d = byQueue.get(q);
        return d != null && !d.isEmpty();
    }

    private ClusterQueueState nextTarget(CohortState cohort) {
        ClusterQueueState highestCq = null;
        DominantResourceShare highestCqDrs = DominantResourceShare.NEGATIVE;
        for (ClusterQueueState q : cohort.members.values()) {
            if (prunedQueues.contains(q)) {
                continue;
            }
            DominantResourceShare drs = DominantResourceShare.of(q);
            int c = DominantResourceShare.compare(drs, highestCqDrs);
            if ((!drs.isBorrowing() && q != cq) || !hasWorkload(q)) {
                prunedQueues.add(q);
            } else if (c == 0) {
                WorkloadRecord a = byQueue.get(q).peek();
                WorkloadRecord b = byQueue.get(highestCq).peek();
                if (PreemptionCandidates.candidateOrder(cq.name).compare(a, b) < 0) {
                    highestCq = q;
                }
            } else if (c > 0) {
                highestCqDrs = drs;
                highestCq = q;
            }
        }
        CohortState highestCohort = null;
        DominantResourceShare highestCohortDrs = DominantResourceShare.NEGATIVE;
        for (CohortState child : cohort.childCohorts.values()) {
            if (prunedCohorts.contains(child)) {
                continue;
            }
            DominantResourceShare drs = DominantResourceShare.of(child);
            if (!drs.isBorrowing() && !preemptorPath.contains(child)) {
                prunedCohorts.add(child);
            } else if (DominantResourceShare.compare(drs, highestCohortDrs) >= 0) {
                highestCohortDrs = drs;
                highestCohort = child;
            }
        }
        if (highestCohort == null && highestCq == null) {
            prunedCohorts.add(cohort);
            return null;
        }
        if (highestCohort != null && (highestCq == null
                || DominantResourceShare.compare(highestCohortDrs, highestCqDrs) >= 0)) {
            return nextTarget(highestCohort);
        }
        return highestCq;
    }

    /** The node below the lowest cohort that holds both queue and the preemptor, on queue's side. */
    private QuotaNode almostLca(ClusterQueueState queue, ClusterQueueState target) {
        CohortState lca = null;
        for (CohortState n = target.parent; n != null; n = n.parent) {
            if (preemptorPath.contains(n)) {
                lca = n;
                break;
            }
        }
        QuotaNode a = queue;
        for (CohortState n = queue.parent; n != null; n = n.parent) {
            if (n == lca) {
                return a;
            }
            a = n;
        }
        return a;
    }
}
