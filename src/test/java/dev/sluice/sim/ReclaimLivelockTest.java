package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.BorrowWithinCohortPolicy;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Engine;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.FlavorFungibility;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LabelSelector;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.PodSetSpec;
import dev.sluice.engine.PreemptionSpec;
import dev.sluice.engine.QueueingStrategy;
import dev.sluice.engine.ReclaimWithinCohort;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.ResourceQuota;
import dev.sluice.engine.StopPolicy;
import dev.sluice.engine.WithinClusterQueue;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadPhase;
import dev.sluice.engine.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Found by replaying Kueue's baseline benchmark: a workload that reclaims quota lent in its cohort must keep the
 * room it makes. Here B borrows 10 of A's 20 cpu and has more small workloads waiting; A's 20-cpu workload preempts
 * some of B's. If B's waiting workloads may borrow the freed (or still free) room in the same or the next cycle,
 * A's workload never fits and preempts again, forever. Kueue reserves the preemptor's usage in the cycle
 * (cycleCohortsUsage), so borrowing entries after it no longer fit and the preemptor is admitted next.
 */
class ReclaimLivelockTest {

    private static final Map<String, Long> ONE_CPU = Map.of("cpu", 1000L);

    private static ClusterQueueSpec cq(String name) {
        PreemptionSpec p = new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.Never, null,
                WithinClusterQueue.LowerPriority);
        return new ClusterQueueSpec(name, "cohort", List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("rf", List.of(new ResourceQuota("cpu", 20_000, 100_000L, null)))))),
                QueueingStrategy.BestEffortFIFO, new LabelSelector(Map.of(), List.of()), p, FlavorFungibility.defaults(),
                StopPolicy.None);
    }

    private static WorkloadSpec workload(String ns, String name, int priority, long cpuMilli, long created) {
        return new WorkloadSpec(new WorkloadKey(ns, name), ns + "-" + name, "lq", priority, created,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", cpuMilli))), true);
    }

    /** The simulator's loop: schedule until nothing is admitted or evicted, evictions completing at once. */
    private static int settle(Engine engine, long now, WorkloadKey watched, int maxCycles) {
        for (int i = 1; i <= maxCycles; i++) {
            CycleResult r = engine.schedule(now);
            for (Eviction e : r.evictions()) {
                engine.evictionDone(e.workload(), now);
            }
            if (engine.workload(watched).map(s -> s.phase() == WorkloadPhase.ADMITTED).orElse(false)) {
                return i;
            }
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                return -i;
            }
        }
        return Integer.MAX_VALUE;
    }

    @Test
    void aReclaimingWorkloadIsAdmittedInsteadOfPreemptingForever() {
        Engine engine = new Engine();
        engine.upsertFlavor(new FlavorSpec("rf", Map.of(), List.of(), List.of()));
        engine.upsertClusterQueue(cq("a"));
        engine.upsertClusterQueue(cq("b"));
        engine.upsertNamespace("a", Map.of());
        engine.upsertNamespace("b", Map.of());
        engine.upsertLocalQueue(new LocalQueueSpec("a", "lq", "a", StopPolicy.None));
        engine.upsertLocalQueue(new LocalQueueSpec("b", "lq", "b", StopPolicy.None));
        // B runs 30 one-cpu workloads: its own 20 and 10 borrowed from A; 20 more wait.
        for (int i = 0; i < 30; i++) {
            engine.submit(workload("b", "small-" + i, 50, ONE_CPU.get("cpu"), i));
        }
        for (int i = 0; i < 100 && !engine.schedule(0).admissions().isEmpty(); i++) {
            // admit B's first 30
        }
        for (int i = 30; i < 50; i++) {
            engine.submit(workload("b", "small-" + i, 50, ONE_CPU.get("cpu"), i));
        }
        engine.schedule(0); // one more of B's is admitted (31 of the cohort's 40 cpu used); 19 wait
        // A's 20-cpu workload arrives: only 9 cpu are free, B borrows 11 of A's quota.
        WorkloadKey large = new WorkloadKey("a", "large");
        engine.submit(workload("a", "large", 200, 20_000, 100));

        int cycles = settle(engine, 100, large, 10_000);

        assertThat(cycles).as("cycles until A's workload is admitted (negative: settled without admitting it)")
                .isBetween(1, 10);
    }
}
