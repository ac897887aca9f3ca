package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.key;
import static dev.sluice.engine.Fixtures.units;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With fair sharing, a workload taken by a strategy may take its nominal quota back: Kueue semantics, not a strategy
 * loop (found by EngineProperties.fairSharingNeverPreemptsBack, seed 3287 with 8 submissions). The strategies compare
 * dominant shares over all resources (Kueue's TargetClusterQueueOrdering prunes a queue only when it borrows
 * nothing), so the preemptor may take a workload from a queue that then borrows only on another flavor; that
 * workload, within its queue's nominal quota on the contested flavor, reclaims it from any borrower whatever the
 * shares (FairSharingPreemptWithinNominal, on by default since Kueue v0.17; runFirstFsStrategy).
 */
class WithinNominalUndoTest {

    private static ResourceGroupSpec cpu(long f1, long f2) {
        return new ResourceGroupSpec(List.of("cpu"), List.of(
                new FlavorQuotas("f1", List.of(new ResourceQuota("cpu", units(f1), null, null))),
                new FlavorQuotas("f2", List.of(new ResourceQuota("cpu", units(f2), null, null)))));
    }

    private static ClusterQueueSpec cq(String name, long f1, long f2, ReclaimWithinCohort reclaim) {
        return new ClusterQueueSpec(name, "co", List.of(cpu(f1, f2)), QueueingStrategy.BestEffortFIFO,
                LabelSelector.everything(),
                new PreemptionSpec(reclaim, BorrowWithinCohortPolicy.Never, null, WithinClusterQueue.Never),
                FlavorFungibility.defaults(), StopPolicy.None);
    }

    /**
     * Cohort f1 8, f2 7. b (f1 nominal 2, f2 0) holds low and high (2 each on f1: borrows 2) and big (7 on f2);
     * c only lends. a (f1 nominal 2) gets wide, 8 on f1. Shares are per resource over both flavors (Kueue's DRS):
     * a with wide borrows 6 of 15 cpu, b borrows 9, and still 7 without low and high, so the strategy
     * (LessThanOrEqualToFinalShare) takes both, though b borrows nothing on f1 once low is gone.
     */
    private static Engine world() {
        Engine engine = new Engine(FairSharing.on());
        engine.upsertFlavor(Fixtures.flavor("f1"));
        engine.upsertFlavor(Fixtures.flavor("f2"));
        engine.upsertClusterQueue(cq("a", 2, 0, ReclaimWithinCohort.Any));
        engine.upsertClusterQueue(cq("b", 2, 0, ReclaimWithinCohort.LowerPriority));
        engine.upsertClusterQueue(cq("c", 4, 7, ReclaimWithinCohort.Never));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-a", "a"));
        engine.upsertLocalQueue(Fixtures.lq("default", "lq-b", "b"));
        engine.submit(Fixtures.wl("low", "lq-b", 0, 0, "cpu", 1, 2));
        engine.submit(Fixtures.wl("high", "lq-b", 4, 1, "cpu", 1, 2));
        Fixtures.settle(engine, 0);
        engine.submit(Fixtures.wl("big", "lq-b", 0, 2, "cpu", 1, 7));
        Fixtures.settle(engine, 0);
        assertThat(engine.clusterQueueStatus("b").admittedWorkloads()).isEqualTo(3);
        engine.submit(Fixtures.wl("wide", "lq-a", 0, 3, "cpu", 1, 8));
        return engine;
    }

    @Test
    void theStrategyTakesFromAQueueBorrowingOnAnotherFlavorAndTheVictimReclaimsItsNominalQuota() {
        Engine engine = world();
        List<Eviction> all = new ArrayList<>();
        for (int cycle = 0; cycle < 6; cycle++) {
            CycleResult r = engine.schedule(10 + cycle);
            all.addAll(r.evictions());
            for (Eviction e : r.evictions()) {
                engine.evictionDone(e.workload(), 10 + cycle);
            }
        }
        assertThat(all).hasSizeGreaterThanOrEqualTo(3);
        assertThat(all.subList(0, 2)).extracting(Eviction::workload).containsExactly(key("low"), key("high"));
        assertThat(all.subList(0, 2)).allSatisfy(e -> {
            assertThat(e.preemptor()).isEqualTo(key("wide"));
            assertThat(e.preemptionReason()).isEqualTo(PreemptionReason.InCohortFairSharing);
        });
        Eviction back = all.get(2);
        assertThat(back.workload()).isEqualTo(key("wide"));
        assertThat(back.preemptor()).isEqualTo(key("high"));
        assertThat(back.preemptionReason()).isEqualTo(PreemptionReason.InCohortReclamation);
    }
}
