package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One admission cycle, as Kueue's scheduler runs it: nominate a head per ClusterQueue, order the heads, then admit
 * those that still fit and issue the preemptions of those that must preempt, keeping each preemptor's room.
 */
final class SchedulingCycle {
    private final QuotaCache cache;
    private final QueueManager queues;
    private final StatusBook statuses;
    private final Evictions evictions;
    private final FlavorAssigner assigner;
    /** Bounds and caches that skip work without changing decisions; off only to check exactly that. */
    private final boolean shortcuts;
    /** Admission fair sharing's usage per LocalQueue; orders the heads of queues in UsageBased mode when on. */
    private final LocalQueueUsage localQueueUsage;

    SchedulingCycle(QuotaCache cache, QueueManager queues, StatusBook statuses, Evictions evictions,
                    boolean shortcuts, LocalQueueUsage localQueueUsage) {
        this.cache = cache;
        this.queues = queues;
        this.statuses = statuses;
        this.evictions = evictions;
        this.assigner = new FlavorAssigner(cache.flavors, cache.fairSharing, cache.tas);
        this.shortcuts = shortcuts;
        this.localQueueUsage = localQueueUsage;
    }

    /**
     * A nominated head; or, with hold set, a preemptor still waiting for its victims, whose usage is held again in
     * this cycle (as Kueue's preemptor, nominated each cycle until its victims are gone, reserves it each cycle).
     */
    private record Entry(WorkloadRecord workload, ClusterQueueState cq, FlavorAssigner.Result result,
                         List<Preemptor.Target> targets, boolean hold) {
        Entry(WorkloadRecord workload, ClusterQueueState cq, FlavorAssigner.Result result,
              List<Preemptor.Target> targets) {
            this(workload, cq, result, targets, false);
        }
    }

    /**
     * A head whose preemptions were issued first (it keeps the room its victims left: otherwise a victim that
     * borrows less would take it back and be preempted again, forever); then borrowing less (a lower level of the
     * cohort tree), then higher priority, then earlier, then key.
     */
    private static final Comparator<Entry> ENTRY_ORDER = Comparator
            .comparing((Entry e) -> !e.workload().preempted)
            .thenComparingInt(e -> e.result().borrowLevel())
            .thenComparingInt(e -> -e.workload().priority())
            .thenComparingLong(e -> e.workload().queueTime)
            .thenComparing(e -> e.workload().key());

    /** Kueue's QuotaReserved=False message for the head held by waitForPodsReady.blockAdmission. */
    static final String WAITING_FOR_PODS_READY = "waiting for all admitted workloads to be in PodsReady condition";

    /** Runs the cycle; admissions are returned, evictions and status changes go to their books. */
    List<Admission> run(long nowMillis) {
        return run(nowMillis, Integer.MAX_VALUE);
    }

    /**
     * As {@link #run(long)}, admitting at most {@code maxAdmissions} (waitForPodsReady.blockAdmission: 1, or 0 while an
     * admitted workload is not ready). Like Kueue's scheduler, the first head that fits beyond the limit is the one
     * that waits: it gets QuotaReserved=False/WaitingForPodsReady; the heads after it are left as they are.
     */
    List<Admission> run(long nowMillis, int maxAdmissions) {
        List<Entry> entries = new ArrayList<>();
        for (ClusterQueueState cq : cache.clusterQueues.values()) {
            if (cq.isActive() && cq.waitingForPreemption != null) {
                entries.add(new Entry(cq.waitingForPreemption, cq, cq.waitingResult, List.of(), true));
            } else if (cq.isActive() && cq.queue.hasActive()) {
                Entry e = nominate(cq);
                if (e != null) {
                    entries.add(e);
                }
            }
        }
        entries.sort(ENTRY_ORDER);
        Pass pass = new Pass(nowMillis, maxAdmissions);
        if (cache.fairSharing.enabled()) {
            List<Entry> remaining = new ArrayList<>(entries);
            while (!remaining.isEmpty()) {
                process(FairSharingTournament.pop(remaining, e -> e.cq(), e -> e.result().usage(),
                        e -> e.workload(), ENTRY_ORDER), pass);
            }
        } else {
            for (Entry e : entries) {
                process(e, pass);
            }
        }
        for (Entry e : pass.reserved) {
            e.cq().removeUsage(e.result().usage());
        }
        for (WorkloadRecord r : pass.requeue) {
            PendingQueue q = cache.get(r.clusterQueue).queue;
            q.leftQueue(r);
            q.push(r);
        }
        return pass.admissions;
    }

    /** The books of one pass over the heads. */
    private static final class Pass {
        final long nowMillis;
        final int maxAdmissions;
        /** A head already waits for PodsReady in this pass. */
        boolean heldForPodsReady;
        final List<Admission> admissions = new ArrayList<>();
        final Set<String> preemptionInvalidated = new HashSet<>();
        final Set<WorkloadKey> targeted = new HashSet<>();
        final List<WorkloadRecord> requeue = new ArrayList<>();
        // A preemptor keeps the room it makes: its usage is reserved for the rest of the cycle (Kueue's
        // cycleCohortsUsage), so borrowing workloads after it cannot take what its victims free.
        final List<Entry> reserved = new ArrayList<>();

        Pass(long nowMillis, int maxAdmissions) {
            this.nowMillis = nowMillis;
            this.maxAdmissions = maxAdmissions;
        }
    }

    /** Admits the head if it still fits, or issues its preemptions unless another head made them stale. */
    private void process(Entry e, Pass pass) {
        long nowMillis = pass.nowMillis;
        List<Admission> admissions = pass.admissions;
        Set<String> preemptionInvalidated = pass.preemptionInvalidated;
        Set<WorkloadKey> targeted = pass.targeted;
        List<WorkloadRecord> requeue = pass.requeue;
        List<Entry> reserved = pass.reserved;
        WorkloadRecord r = e.workload();
        ClusterQueueState cq = e.cq();
        String scope = cq.parent != null ? "cohort:" + cq.root().name : "cq:" + cq.name;
        if (e.hold()) {
            // Without it, borrowers would take the room the victims leave and the preemptor would preempt
            // again, forever. Like a preemption, it makes later preemption plans of the scope stale.
            cq.addUsage(e.result().usage());
            reserved.add(e);
            preemptionInvalidated.add(scope);
            return;
        }
        if (e.result().mode() == FlavorAssigner.Mode.FIT) {
            if (!cq.fits(e.result().usage(), true)) {
                statuses.set(r, PendingReason.Pending, UnadmittedReason.WaitingForQuota,
                        "Workload no longer fits after processing another workload");
                requeue.add(r);
                return;
            }
            if (admissions.size() >= pass.maxAdmissions) {
                if (!pass.heldForPodsReady) {
                    pass.heldForPodsReady = true;
                    statuses.set(r, PendingReason.WaitingForPodsReady, UnadmittedReason.WaitingForPodsReady,
                            WAITING_FOR_PODS_READY);
                }
                requeue.add(r);
                return;
            }
            cq.queue.leftQueue(r);
            cache.hold(r, cq, e.result().assignment(cq.name), nowMillis);
            r.message = "Quota reserved in ClusterQueue " + cq.name + ", wait time since queued was "
                    + Math.max(0, (nowMillis - r.queueTime + 500) / 1000) + "s";
            statuses.forget(r.key());
            List<String> checks = AdmissionChecks.forAssignment(cq.spec, r.assignment);
            checks.forEach(c -> r.checks.put(c, CheckState.Pending));
            admissions.add(new Admission(r.key(), r.assignment, r.message, checks));
            localQueueUsage.admitted(r);
            preemptionInvalidated.add(scope);
            return;
        }
        // Preemption: victims go first; the preemptor is admitted in a later cycle once they are gone.
        List<Preemptor.Target> targets = e.targets();
        boolean overlaps = targets.stream().anyMatch(t -> targeted.contains(t.workload().key()));
        if (preemptionInvalidated.contains(scope) || overlaps) {
            statuses.set(r, PendingReason.Pending, UnadmittedReason.WaitingForQuota,
                    "Workload skipped because its preemption calculations were invalidated by another workload");
            requeue.add(r);
            return;
        }
        for (Preemptor.Target t : targets) {
            targeted.add(t.workload().key());
            if (t.workload().phase == WorkloadPhase.ADMITTED) {
                evictions.evict(t.workload(), EvictionReason.Preempted, t.reason(), r,
                        preemptionMessage(r, cq, t));
            }
        }
        statuses.set(r, PendingReason.Pending, UnadmittedReason.WaitingForPreemptedWorkloads,
                e.result().message() + ". Pending the preemption of "
                + targets.size() + " workload(s)");
        requeue.add(r);
        r.preempted = true;
        cq.waitingForPreemption = r;
        cq.waitingResult = e.result();
        if (cq.spec.queueingStrategy() == QueueingStrategy.BestEffortFIFO) {
            cq.stickyPreemptor = r;
        }
        preemptionInvalidated.add(scope);
        cq.addUsage(e.result().usage());
        reserved.add(e);
    }

    /**
     * Takes heads of the queue until one can be admitted or must preempt. Inadmissible heads are parked
     * (BestEffortFIFO) or block the queue (StrictFIFO). Parked heads do not change the state, so trying the
     * next head in the same cycle gives what Kueue gives over several cycles, only sooner.
     */
    private Entry nominate(ClusterQueueState cq) {
        WorkloadRecord r;
        while ((r = pollHead(cq)) != null) {
            LabelSelector selector = cq.spec.namespaceSelector();
            if (selector == null || !selector.matches(queues.namespaceLabels(r.key().namespace()))) {
                statuses.set(r, PendingReason.Inadmissible, UnadmittedReason.Misconfigured,
                        "Workload namespace doesn't match ClusterQueue selector");
                cq.queue.park(r);
                continue;
            }
            final WorkloadRecord wl = r;
            NominationOracle oracle = new NominationOracle(r, cq, shortcuts, cache.fairSharing);
            int[] counts = new int[r.spec.podSets().size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = r.spec.podSets().get(i).count();
            }
            FlavorAssigner.Result res = assigner.assign(r.spec, cq, counts, oracle);
            if (res.mode() == FlavorAssigner.Mode.FIT) {
                return new Entry(r, cq, res, List.of());
            }
            if (res.mode() == FlavorAssigner.Mode.PREEMPT) {
                List<Preemptor.Target> targets = oracle.targets(res);
                if (!targets.isEmpty()) {
                    return new Entry(r, cq, res, targets);
                }
            }
            // As Kueue's pod set reducer: fewer pods that fit, or that fit once victims are gone.
            Entry partial = PartialAdmission.search(r.spec, counts, c -> {
                FlavorAssigner.Result a = assigner.assign(wl.spec, cq, c, oracle);
                if (a.mode() == FlavorAssigner.Mode.FIT) {
                    return new Entry(wl, cq, a, List.of());
                }
                if (a.mode() == FlavorAssigner.Mode.PREEMPT) {
                    List<Preemptor.Target> t = oracle.targets(a);
                    return t.isEmpty() ? null : new Entry(wl, cq, a, t);
                }
                return null;
            });
            if (partial != null) {
                return partial;
            }
            // Kueue: a NoFit keeps the assigner's reason; a preemption without candidates waits for quota.
            statuses.set(r, PendingReason.Pending, res.mode() == FlavorAssigner.Mode.NO_FIT ? res.noFitReason()
                    : UnadmittedReason.WaitingForQuota, res.message());
            if (cq.spec.queueingStrategy() == QueueingStrategy.StrictFIFO) {
                cq.queue.leftQueue(r);
                cq.queue.push(r);
                return null;
            }
            cq.queue.park(r);
        }
        return null;
    }

    /** The queue's head: its sticky preemptor first while it waits unparked there, else the first in order. */
    private WorkloadRecord pollHead(ClusterQueueState cq) {
        WorkloadRecord sticky = cq.stickyPreemptor;
        if (sticky != null) {
            if (sticky.phase == WorkloadPhase.PENDING && cq.name.equals(sticky.clusterQueue)
                    && cq.queue.pollIfActive(sticky)) {
                return sticky;
            }
            if (sticky.phase != WorkloadPhase.PENDING || !cq.name.equals(sticky.clusterQueue)) {
                cq.stickyPreemptor = null; // admitted, gone or moved: no longer this queue's preemptor
            }
        }
        if (localQueueUsage.enabled() && cq.spec != null
                && cq.spec.admissionMode() == AdmissionMode.UsageBasedAdmissionFairSharing) {
            return cq.queue.pollHead(localQueueUsage::weightedUsage);
        }
        return cq.queue.pollHead();
    }

    /**
     * Kueue v0.19's Preempted message (preemptionMessage in pkg/scheduler/preemption): why, then the cohort paths of
     * the preemptor's and the victim's ClusterQueues (buildCQPath); a path not known is "UNKNOWN", as there.
     */
    private String preemptionMessage(WorkloadRecord preemptor, ClusterQueueState preemptorCq,
                                     Preemptor.Target target) {
        ClusterQueueState victimCq = target.workload().clusterQueue == null ? null
                : cache.get(target.workload().clusterQueue);
        return preemptionMessage(preemptor, target.reason()) + "; preemptor path: " + preemptorCq.path()
                + "; preemptee path: " + (victimCq == null ? "UNKNOWN" : victimCq.path());
    }

    private static String preemptionMessage(WorkloadRecord preemptor, PreemptionReason reason) {
        String why = switch (reason) {
            case InClusterQueue -> "prioritization in the ClusterQueue";
            case InCohortReclamation -> "reclamation within the cohort";
            case InCohortReclaimWhileBorrowing -> "reclamation within the cohort while borrowing";
            case InCohortFairSharing -> "Fair Sharing within the cohort";
        };
        return "Preempted to accommodate a workload (UID: " + preemptor.spec.uid() + ", JobUID: UNKNOWN) due to "
                + why;
    }
}
