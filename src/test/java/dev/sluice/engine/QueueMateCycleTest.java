package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With fair sharing, three workloads may evict each other in a ring, as in Kueue v0.19 (found by
 * EngineProperties.fairSharingNeverPreemptsBack, seed 251044 with 10 submissions; reduced here). No step is a
 * strategy preempting back: Kueue's no-loop argument covers the strategies, and the ring closes through two other
 * kinds of preemption it allows with fair sharing on:
 * <ul>
 *   <li>a higher-priority workload preempts a queue-mate and borrows for the rest (fair sharing lets a queue preempt
 *       while borrowing when its reclaimWithinCohort is not Never: canPreemptWhileBorrowing in
 *       pkg/scheduler/flavorassigner), which raises its queue's share with no share check at all
 *       (InClusterQueue targets in runFirstFsStrategy);</li>
 *   <li>the queue-mate, within its queue's nominal quota, reclaims from a borrower whatever the shares
 *       (FairSharingPreemptWithinNominal, on since Kueue v0.17; without it LessThanOrEqualToFinalShare passes too,
 *       its share being 0).</li>
 * </ul>
 */
class QueueMateCycleTest {

    private static ClusterQueueSpec cq(String name, long nominal, WithinClusterQueue within) {
        return Fixtures.withPreemption(Fixtures.cq(name, "co", "cpu", "f1", nominal),
                new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.Never, null, within));
    }

    /**
     * Cohort 7 cpu. big (nominal 5) holds large, 6 cpu: it borrows 1. team (nominal 2) gets small (priority 0, 2 cpu)
     * and wide (priority 1, 6 cpu).
     */
    private static Engine world() {
        Engine engine = new Engine(FairSharing.on());
        engine.upsertFlavor(Fixtures.flavor("f1"));
        engine.upsertClusterQueue(cq("team", 2, WithinClusterQueue.LowerPriority));
        engine.upsertClusterQueue(cq("big", 5, WithinClusterQueue.Never));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-team", "team"));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-big", "big"));
        engine.submit(Fixtures.wl("large", "lq-big", 4, 0, "cpu", 1, 6));
        assertThat(Fixtures.admitted(Fixtures.settle(engine, 0))).containsExactly(key("large"));
        engine.submit(Fixtures.wl("small", "lq-team", 0, 1, "cpu", 1, 2));
        engine.submit(Fixtures.wl("wide", "lq-team", 1, 2, "cpu", 1, 6));
        return engine;
    }

    private record Step(String victim, String preemptor, PreemptionReason reason) {
        static Step of(Eviction e) {
            return new Step(e.workload().name(), e.preemptor().name(), e.preemptionReason());
        }
    }

    @Test
    void aQueueMatePreemptingWhileBorrowingClosesARingOfThreeAsInKueue() {
        Engine engine = world();
        List<Step> steps = new ArrayList<>();
        for (int cycle = 0; cycle < 40 && steps.size() < 6; cycle++) {
            CycleResult r = engine.schedule(10 + cycle);
            for (Eviction e : r.evictions()) {
                steps.add(Step.of(e));
                engine.evictionDone(e.workload(), 10 + cycle);
            }
        }
        // wide cannot take large (team would borrow 4 of 7, big borrows 1): small reclaims team's nominal quota;
        // wide, of higher priority, takes small and borrows 4; large takes wide (LessThanInitialShare: big's share
        // with large, 1/7, is below team's 4/7); and round again.
        List<Step> round = List.of(
                new Step("large", "small", PreemptionReason.InCohortReclamation),
                new Step("small", "wide", PreemptionReason.InClusterQueue),
                new Step("wide", "large", PreemptionReason.InCohortFairSharing));
        assertThat(steps).hasSize(6);
        assertThat(steps.subList(0, 3)).containsExactlyElementsOf(round);
        assertThat(steps.subList(3, 6)).containsExactlyElementsOf(round);
    }

    @Test
    void withoutTheQueueMatesPreemptionItSettles() {
        Engine engine = new Engine(FairSharing.on());
        engine.upsertFlavor(Fixtures.flavor("f1"));
        engine.upsertClusterQueue(cq("team", 2, WithinClusterQueue.Never));
        engine.upsertClusterQueue(cq("big", 5, WithinClusterQueue.Never));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-team", "team"));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-big", "big"));
        engine.submit(Fixtures.wl("large", "lq-big", 4, 0, "cpu", 1, 6));
        Fixtures.settle(engine, 0);
        engine.submit(Fixtures.wl("small", "lq-team", 0, 1, "cpu", 1, 2));
        engine.submit(Fixtures.wl("wide", "lq-team", 1, 2, "cpu", 1, 6));
        List<Step> steps = new ArrayList<>();
        for (int cycle = 0; cycle < 40; cycle++) {
            CycleResult r = engine.schedule(10 + cycle);
            for (Eviction e : r.evictions()) {
                steps.add(Step.of(e));
                engine.evictionDone(e.workload(), 10 + cycle);
            }
        }
        assertThat(steps).containsExactly(new Step("large", "small", PreemptionReason.InCohortReclamation));
        assertThat(engine.clusterQueueStatus("team").admittedWorkloads()).isEqualTo(1);
    }
}
