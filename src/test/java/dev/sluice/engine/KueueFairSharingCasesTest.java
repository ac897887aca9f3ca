package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cases translated from Kueue v0.19's pkg/scheduler/scheduler_fs_test.go (TestScheduleForFairSharing), one
 * scheduling cycle each; the expected outcomes are Kueue's.
 */
class KueueFairSharingCasesTest {

    /**
     * "with fair sharing: prefer reclamation over cq priority based preemption; with preemption while borrowing":
     * fair sharing lets other-alpha preempt while borrowing. On on-demand the preemptor would take a1 of its own
     * queue, on spot b1 of other-beta (which borrows 2 there, a fair-sharing preemption); both leave other-alpha
     * borrowing 1, and reclaiming from another queue is the better mode, so Kueue takes b1 and leaves a1.
     */
    @Test
    void withFairSharingPreferReclamationOverCqPriorityBasedPreemptionWithPreemptionWhileBorrowing() {
        PreemptionSpec lower = KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.LowerPriority);
        CycleResult r = new KueueCase(true, "on-demand", "spot")
                .cq(KueueCase.queue("other-alpha", "other", lower, null, "gpu",
                        KueueCase.quota("on-demand", "gpu", 7), KueueCase.quota("spot", "gpu", 7)))
                .cq(KueueCase.queue("other-beta", "other", null, null, "gpu",
                        KueueCase.quota("on-demand", "gpu", 3), KueueCase.quota("spot", "gpu", 3)))
                .lq("eng-alpha", "other", "other-alpha").lq("eng-beta", "other", "other-beta")
                .admitted("eng-alpha", "a1", "other", 50, "gpu", 5, "other-alpha", "on-demand")
                .admitted("eng-beta", "b1", "other", 50, "gpu", 5, "other-beta", "spot")
                .pending("eng-alpha", "preemptor", "other", 100, "gpu", 8)
                .schedule();
        assertThat(KueueCase.evicted(r)).containsExactly("eng-beta/b1 InCohortFairSharing");
        assertThat(r.evictions().get(0).message()).isEqualTo("Preempted to accommodate a workload (UID: wl-preemptor,"
                + " JobUID: UNKNOWN) due to Fair Sharing within the cohort; preemptor path: /other/other-alpha;"
                + " preemptee path: /other/other-beta");
        assertThat(r.admissions()).isEmpty();
        assertThat(KueueCase.message(r, "eng-alpha", "preemptor")).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for gpu in flavor on-demand, 3 more needed, insufficient unused quota for"
                + " gpu in flavor spot, 3 more needed. Pending the preemption of 1 workload(s)");
    }

    /** The cohorts of "prefer flavor with most local capacity": on-demand mostly in the root, spot in the child. */
    private static CycleResult mostLocalCapacity(boolean fairSharing) {
        FlavorFungibility tryNext = new FlavorFungibility(WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor);
        return new KueueCase(fairSharing, "on-demand", "spot")
                .cohort(new CohortSpec("root-cohort", null, List.of(new ResourceGroupSpec(List.of("gpu"), List.of(
                        KueueCase.quota("on-demand", "gpu", 2), KueueCase.quota("spot", "gpu", 0))))))
                .cohort(new CohortSpec("child-cohort", "root-cohort", List.of(new ResourceGroupSpec(List.of("gpu"),
                        List.of(KueueCase.quota("on-demand", "gpu", 5), KueueCase.quota("spot", "gpu", 7))))))
                .cq(KueueCase.queue("queue1", "child-cohort",
                        KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.Any), tryNext, "gpu",
                        KueueCase.quota("on-demand", "gpu", 3), KueueCase.quota("spot", "gpu", 3)))
                .lq("default", "queue1", "queue1")
                .admitted("default", "a1", "queue1", 0, "gpu", 8, "queue1", "on-demand")
                .admitted("default", "a2", "queue1", 0, "gpu", 3, "queue1", "spot")
                .pending("default", "a3", "queue1", 0, "gpu", 1)
                .schedule();
    }

    /** "prefer flavor with most local capacity": both flavors fit by borrowing; spot borrows from nearer. */
    @Test
    void preferFlavorWithMostLocalCapacity() {
        assertThat(KueueCase.admitted(mostLocalCapacity(true))).containsExactly("default/a3 queue1 [spot]");
    }

    /** "prefer flavor with most local capacity (FS=false)". */
    @Test
    void preferFlavorWithMostLocalCapacityWithoutFairSharing() {
        assertThat(KueueCase.admitted(mostLocalCapacity(false))).containsExactly("default/a3 queue1 [spot]");
    }
    /** "PreemptionOverBorrowing with fair sharing: preempt in first flavor instead of borrowing in second". */
    @Test
    void preemptionOverBorrowingWithFairSharingPreemptInFirstFlavorInsteadOfBorrowingInSecond() {
        FlavorFungibility pob = new FlavorFungibility(WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor,
                FlavorFungibilityPreference.PreemptionOverBorrowing);
        CycleResult r = new KueueCase(true, "on-demand", "spot")
                .cq(KueueCase.queue("fs-pob-cq", "fs-pob-cohort",
                        KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.Never), pob, "cpu",
                        KueueCase.quota("on-demand", "cpu", 5, 0L), KueueCase.quota("spot", "cpu", 0, 5L)))
                .cq(KueueCase.queue("fs-pob-lender", "fs-pob-cohort", null, null, "cpu",
                        KueueCase.quota("on-demand", "cpu", 0), KueueCase.quota("spot", "cpu", 5)))
                .lq("default", "fs-pob-queue", "fs-pob-cq")
                .admitted("default", "fs-low-pob", "fs-pob-queue", -1, "cpu", 5, "fs-pob-cq", "on-demand")
                .pending("default", "fs-high-pob", "fs-pob-queue", 0, "cpu", 5)
                .schedule();
        assertThat(KueueCase.evicted(r)).containsExactly("default/fs-low-pob InClusterQueue");
        assertThat(r.admissions()).isEmpty();
        assertThat(KueueCase.message(r, "default", "fs-high-pob")).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for cpu in flavor on-demand, 5 more needed. Pending the preemption of 1"
                + " workload(s)");
    }
}
