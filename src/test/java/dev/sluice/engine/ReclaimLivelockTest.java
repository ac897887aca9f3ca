package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Found by the simulator replaying Kueue's baseline benchmark (adapted from the sim branch's test): a workload that
 * reclaims quota lent in its cohort must keep the room it makes. B borrows 11 of A's 20 cpu and has more small
 * workloads waiting; A's 20-cpu workload preempts some of B's. If B's waiting workloads took the room in the same
 * cycle, A's workload would never fit and would preempt again, forever. As in Kueue (cycle usage), the preemptor's
 * usage is held for the rest of its cycle, so borrowing entries after it no longer fit.
 */
class ReclaimLivelockTest {

    private static ClusterQueueSpec cq(String name) {
        PreemptionSpec p = new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.Never, null,
                WithinClusterQueue.LowerPriority);
        return new ClusterQueueSpec(name, "cohort", List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("rf", List.of(new ResourceQuota("cpu", 20_000, 100_000L, null)))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), p, FlavorFungibility.defaults(),
                StopPolicy.None);
    }

    private static WorkloadSpec workload(String ns, String name, int priority, long cpuMilli, long created) {
        return new WorkloadSpec(new WorkloadKey(ns, name), ns + "-" + name, "lq", priority, created,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", cpuMilli))), true);
    }

    /** B holds 31 of the cohort's 40 cpu (11 borrowed from A) with 19 more waiting; A's 20-cpu workload arrives. */
    private static Engine borrowedCohort() {
        Engine engine = new Engine();
        engine.upsertFlavor(new FlavorSpec("rf", Map.of(), List.of(), List.of()));
        engine.upsertClusterQueue(cq("a"));
        engine.upsertClusterQueue(cq("b"));
        engine.upsertLocalQueue(new LocalQueueSpec("a", "lq", "a", StopPolicy.None));
        engine.upsertLocalQueue(new LocalQueueSpec("b", "lq", "b", StopPolicy.None));
        for (int i = 0; i < 31; i++) {
            engine.submit(workload("b", "small-" + i, 50, 1000, i));
        }
        for (int i = 0; i < 100 && !engine.schedule(0).admissions().isEmpty(); i++) {
            // one admission per cycle per queue: B's 31
        }
        for (int i = 31; i < 50; i++) {
            engine.submit(workload("b", "small-" + i, 50, 1000, i));
        }
        engine.submit(workload("a", "large", 200, 20_000, 100));
        return engine;
    }

    @Test
    void theCyclePreemptingForAWorkloadAdmitsNoBorrowerIntoTheRoomItMakes() {
        Engine engine = borrowedCohort();
        assertThat(engine.clusterQueueStatus("b").admittedWorkloads()).isEqualTo(31);

        CycleResult first = engine.schedule(100);

        assertThat(first.evictions()).hasSize(11)
                .allSatisfy(e -> assertThat(e.preemptionReason()).isEqualTo(PreemptionReason.InCohortReclamation));
        assertThat(first.admissions()).as("B's head would borrow the room A is reclaiming").isEmpty();
        // The hold lasts only for the cycle: usage is what the admitted workloads use.
        assertThat(engine.clusterQueueStatus("a").flavorsUsage()).isEmpty();
        assertThat(engine.clusterQueueStatus("b").flavorsUsage())
                .containsEntry(new FlavorResource("rf", "cpu"), 31_000L);
    }

    @Test
    void aReclaimingWorkloadIsAdmittedInsteadOfPreemptingForever() {
        Engine engine = borrowedCohort();
        WorkloadKey large = new WorkloadKey("a", "large");
        int evictions = 0;
        int cycles = 0;
        while (cycles < 10_000
                && engine.workload(large).map(s -> s.phase() != WorkloadPhase.ADMITTED).orElse(true)) {
            CycleResult r = engine.schedule(100);
            cycles++;
            for (Eviction e : r.evictions()) {
                engine.evictionDone(e.workload(), 100);
                evictions++;
            }
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                break;
            }
        }

        assertThat(engine.workload(large).orElseThrow().phase()).isEqualTo(WorkloadPhase.ADMITTED);
        assertThat(cycles).as("cycles until A's workload is admitted").isBetween(1, 10);
        assertThat(evictions).as("only the borrowed 11 cpu are reclaimed").isEqualTo(11);
        assertThat(engine.clusterQueueStatus("b").admittedWorkloads()).isEqualTo(20);
    }
}
