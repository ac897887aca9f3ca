package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dominant shares in a tree that keeps all its quota below a lending limit of 0 (found by
 * EngineProperties.fairSharingNeverPreemptsBack on random seeds, world seeds 242403 and 154593). Kueue sums a share's
 * lendable over every (flavor, resource) of the root's subtree quota, which lists even zeros (calculateLendable in
 * pkg/cache/scheduler/fair_sharing.go); Sluice's subtree quota leaves zeros out, so it found nothing lendable, every
 * borrower's share was 0, LessThanOrEqualToFinalShare always passed, and two borrowers took each other's workloads
 * back and forth.
 */
class LendingLimitShareTest {

    /** Cohort c1 (under the implicit root c0) keeps its 2 cpu and everything its queues lend: 8 cpu in all. */
    private static Engine tree() {
        Engine e = new Engine(FairSharing.on());
        e.upsertFlavor(flavor("f1"));
        e.upsertCohort(new CohortSpec("c1", "c0", List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("f1", List.of(new ResourceQuota("cpu", units(2), null, units(0)))))))));
        PreemptionSpec reclaim = new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.Never, null,
                WithinClusterQueue.Never);
        for (ClusterQueueSpec cq : List.of(cq("a", "c1", "cpu", "f1", 6), cq("b", "c1", "cpu", "f1", 0))) {
            e.upsertClusterQueue(withPreemption(cq, reclaim));
            e.upsertLocalQueue(lq("default", "lq-" + cq.name(), cq.name()));
        }
        e.submit(wl("a1", "lq-a", 0, 0, "cpu", 1, 6));
        e.submit(wl("b1", "lq-b", 4, 1, "cpu", 1, 2));
        assertThat(admitted(settle(e, 1))).containsExactlyInAnyOrder(key("a1"), key("b1"));
        return e;
    }

    @Test
    void aShareCountsWhatTheCohortKeepsBelowItsLendingLimit() {
        // b borrows 2 of the 8 cpu c1 could ever give it: 2000 * 1000 / 8000
        assertThat(tree().clusterQueueWeightedShare("b")).hasValue(250);
    }

    @Test
    void equalSharesPreemptNeitherWay() {
        Engine e = tree();
        // a with a2 would borrow 2 of 8, as b does with b1: neither LessThanOrEqualToFinalShare (250 <= 0) nor
        // LessThanInitialShare (250 < 250) holds, and a would not stay within its nominal quota
        e.submit(wl("a2", "lq-a", 3, 2, "cpu", 1, 2));
        CycleResult r = settle(e, 2);
        assertThat(r.evictions()).isEmpty();
        assertThat(e.workload(key("b1")).orElseThrow().phase()).isEqualTo(WorkloadPhase.ADMITTED);
        assertThat(e.workload(key("a2")).orElseThrow().phase()).isIn(WorkloadPhase.PENDING,
                WorkloadPhase.INADMISSIBLE);
    }
}
