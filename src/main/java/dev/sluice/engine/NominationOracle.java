package dev.sluice.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's preemption oracle for the nomination of one head: what preemption could do to fit val of fr. It
 * remembers the victims it found per (flavor resource, amount), so that when the assignment needs exactly that,
 * the victim search is not run a second time. Valid only while nothing changes, i.e. within one nomination.
 */
final class NominationOracle implements FlavorAssigner.PreemptionOracle {
    private record Ask(FlavorResource fr, long val) {
    }

    private final WorkloadRecord wl;
    private final ClusterQueueState cq;
    private final boolean shortcuts;
    private final FairSharing fairSharing;
    /** Lookup only; never iterated. */
    private final Map<Ask, List<Preemptor.Target>> found = new HashMap<>();

    /** With shortcuts off, every question runs the full search (the reference the properties compare with). */
    NominationOracle(WorkloadRecord wl, ClusterQueueState cq, boolean shortcuts, FairSharing fairSharing) {
        this.fairSharing = fairSharing;
        this.wl = wl;
        this.cq = cq;
        this.shortcuts = shortcuts;
    }

    /**
     * Kueue's SimulatePreemption: the victims for val of fr; RECLAIM when none is in the preemptor's own queue,
     * else PREEMPT, with the borrowing level the queue would have once they are gone; null when there are none.
     */
    @Override
    public FlavorAssigner.Granular simulate(FlavorResource fr, long val) {
        if (shortcuts && Preemptor.bound(wl, cq, fr, val, fairSharing) < val) {
            return null;
        }
        List<Preemptor.Target> targets = Preemptor.targets(wl, Map.of(fr, val), Set.of(fr), cq, fairSharing);
        if (shortcuts) {
            found.put(new Ask(fr, val), targets);
        }
        if (targets.isEmpty()) {
            return null;
        }
        boolean own = false;
        for (Preemptor.Target t : targets) {
            t.owner().removeUsage(t.workload().usage);
            own |= t.owner() == cq;
        }
        int borrow = cq.borrowingWith(fr, val) ? FlavorAssigner.borrowHeight(cq, fr, val) : 0;
        for (Preemptor.Target t : targets) {
            t.owner().addUsage(t.workload().usage);
        }
        return new FlavorAssigner.Granular(own ? FlavorAssigner.PreemptionMode.PREEMPT
                : FlavorAssigner.PreemptionMode.RECLAIM, borrow);
    }

    /** The victims for the assignment: those already found if it needs exactly what was asked, else a search. */
    List<Preemptor.Target> targets(FlavorAssigner.Result assignment) {
        if (shortcuts && assignment.usage().size() == 1 && assignment.needPreemption().size() == 1) {
            Map.Entry<FlavorResource, Long> only = assignment.usage().entrySet().iterator().next();
            if (assignment.needPreemption().contains(only.getKey())) {
                List<Preemptor.Target> known = found.get(new Ask(only.getKey(), only.getValue()));
                if (known != null) {
                    return known;
                }
            }
        }
        return Preemptor.targets(wl, assignment, cq, fairSharing);
    }
}
