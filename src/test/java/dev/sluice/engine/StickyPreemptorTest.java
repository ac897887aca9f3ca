package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.key;
import static dev.sluice.engine.Fixtures.units;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A preemption must settle: once its victims are gone the preemptor is admitted, not the victim again. Found by
 * EngineProperties (seeds 55302/19 and 144021/21 without fair sharing, 6/18 with it): a higher-priority workload of
 * the preemptor's queue, parked before and woken by the same release, was nominated instead of the preemptor; it
 * lost the room to the victim (which borrows as much and has a higher priority), the victim was admitted again and
 * the preemptor preempted it again, forever. As Kueue v0.19's ClusterQueue keeps its preemptor workload sticky at
 * the head (BestEffortFIFO; pkg/cache/queue/cluster_queue.go, preemptorWorkload), the preemptor is tried first.
 */
class StickyPreemptorTest {

    private static ClusterQueueSpec cq(String name, long nominal, ReclaimWithinCohort reclaim) {
        return new ClusterQueueSpec(name, "co", List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("f1", List.of(new ResourceQuota("cpu", units(nominal), null, null)))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(),
                new PreemptionSpec(reclaim, BorrowWithinCohortPolicy.Never, null, WithinClusterQueue.Never),
                FlavorFungibility.defaults(), StopPolicy.None);
    }

    /**
     * Cohort of 6 cpu: a (nominal 2, reclaims) and b (nominal 4). b's victim (6 cpu, priority 5) borrows 2 of a's;
     * a's high (5 cpu, priority 3) does not fit and may not preempt (5 is above a's nominal 2), so it is parked and
     * a's preemptor (2 cpu, priority 0) reclaims: the victim is preempted.
     */
    private static Engine reclaimingCohort() {
        Engine engine = new Engine();
        engine.upsertFlavor(Fixtures.flavor("f1"));
        engine.upsertClusterQueue(cq("a", 2, ReclaimWithinCohort.Any));
        engine.upsertClusterQueue(cq("b", 4, ReclaimWithinCohort.Never));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-a", "a"));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-b", "b"));
        engine.submit(Fixtures.wl("victim", "lq-b", 5, 0, "cpu", 1, 6));
        assertThat(Fixtures.admitted(Fixtures.settle(engine, 0))).containsExactly(key("victim"));
        engine.submit(Fixtures.wl("high", "lq-a", 3, 1, "cpu", 1, 5));
        engine.submit(Fixtures.wl("preemptor", "lq-a", 0, 2, "cpu", 1, 2));
        return engine;
    }

    @Test
    void thePreemptorIsAdmittedOnceItsVictimIsGoneThoughAHigherPriorityHeadWasWoken() {
        Engine engine = reclaimingCohort();
        CycleResult first = engine.schedule(10);
        assertThat(first.evictions()).extracting(Eviction::workload).containsExactly(key("victim"));
        assertThat(first.evictions().get(0).preemptor()).isEqualTo(key("preemptor"));

        List<Eviction> evictions = new ArrayList<>(first.evictions());
        for (int cycle = 0; cycle < 20; cycle++) {
            for (Eviction e : List.copyOf(evictions)) {
                engine.evictionDone(e.workload(), 20);
            }
            evictions.clear();
            CycleResult r = engine.schedule(20 + cycle);
            evictions.addAll(r.evictions());
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                break;
            }
        }

        assertThat(engine.workload(key("preemptor")).orElseThrow().phase()).isEqualTo(WorkloadPhase.ADMITTED);
        assertThat(engine.workload(key("victim")).orElseThrow().phase()).isNotEqualTo(WorkloadPhase.ADMITTED);
        assertThat(engine.workload(key("high")).orElseThrow().phase()).isNotEqualTo(WorkloadPhase.ADMITTED);
        assertThat(engine.clusterQueueStatus("a").flavorsUsage())
                .isEqualTo(Map.of(new FlavorResource("f1", "cpu"), units(2)));
    }

    @Test
    void theVictimIsPreemptedOnlyOnce() {
        Engine engine = reclaimingCohort();
        int preemptions = 0;
        for (int cycle = 0; cycle < 50; cycle++) {
            CycleResult r = engine.schedule(cycle);
            for (Eviction e : r.evictions()) {
                preemptions++;
                engine.evictionDone(e.workload(), cycle);
            }
        }
        assertThat(preemptions).isEqualTo(1);
    }
}
