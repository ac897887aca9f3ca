package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Cases translated from Kueue v0.19's pkg/scheduler/scheduler_test.go; the expected outcomes are Kueue's. */
class KueueSchedulerCasesTest {

    private static Engine engine(ClusterQueueSpec... cqs) {
        Engine e = new Engine();
        e.upsertFlavor(flavor("on-demand"));
        for (ClusterQueueSpec cq : cqs) {
            e.upsertClusterQueue(cq);
        }
        return e;
    }

    /** "A workload is only eligible to do preemptions if it fits fully within nominal quota". */
    @Test
    void aWorkloadPreemptsOnlyIfItFitsWithinNominalQuota() {
        Engine e = engine(
                withPreemption(cq("other-alpha", "other", "cpu", "on-demand", 2),
                        new PreemptionSpec(ReclaimWithinCohort.Any, null, null, WithinClusterQueue.LowerPriority)),
                cq("other-beta", "other", "cpu", "on-demand", 2));
        e.upsertLocalQueue(lq("eng-alpha", "other", "other-alpha"));
        e.upsertLocalQueue(lq("eng-beta", "other", "other-beta"));
        WorkloadKey a1 = new WorkloadKey("eng-alpha", "a1");
        WorkloadKey b1 = new WorkloadKey("eng-beta", "b1");
        e.submit(inNamespace(wl("a1", "other", -1, 0, "cpu", 1, 1), "eng-alpha"));
        e.submit(inNamespace(wl("b1", "other", -1, 0, "cpu", 1, 1), "eng-beta"));
        assertThat(admitted(settle(e, 1))).containsExactlyInAnyOrder(a1, b1);

        WorkloadKey incoming = new WorkloadKey("eng-alpha", "incoming");
        e.submit(inNamespace(wl("incoming", "other", 1, 2, "cpu", 1, 3), "eng-alpha"));
        CycleResult r = settle(e, 3);

        // 3 CPU exceed other-alpha's nominal 2, borrowWithinCohort is off: no preemption, not even of its own a1.
        assertThat(r.evictions()).isEmpty();
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, incoming)).isEqualTo(
                "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor on-demand,"
                        + " 1 more needed");
        assertThat(e.workload(a1).orElseThrow().phase()).isEqualTo(WorkloadPhase.ADMITTED);
        assertThat(e.workload(b1).orElseThrow().phase()).isEqualTo(WorkloadPhase.ADMITTED);
    }

    /** The other side of the rule: within nominal quota the same queue preempts its lower-priority workload. */
    @Test
    void withinNominalQuotaTheSameQueuePreempts() {
        Engine e = engine(
                withPreemption(cq("other-alpha", "other", "cpu", "on-demand", 2),
                        new PreemptionSpec(ReclaimWithinCohort.Any, null, null, WithinClusterQueue.LowerPriority)),
                cq("other-beta", "other", "cpu", "on-demand", 2));
        e.upsertLocalQueue(lq("default", "other", "other-alpha"));
        e.submit(wl("a1", "other", -1, 0, "cpu", 1, 2));
        assertThat(admitted(settle(e, 1))).containsExactly(key("a1"));
        e.submit(wl("b2", "other", 0, 1, "cpu", 1, 2)); // borrows other-beta's idle 2
        assertThat(admitted(settle(e, 2))).containsExactly(key("b2"));

        e.submit(wl("incoming", "other", 1, 2, "cpu", 1, 2));
        CycleResult r = settle(e, 3);
        assertThat(r.evictions()).extracting(Eviction::workload).containsExactly(key("a1"));
        assertThat(r.evictions().get(0).preemptionReason()).isEqualTo(PreemptionReason.InClusterQueue);
    }

    /** With borrowWithinCohort the queue may preempt although it borrows afterwards (Kueue's third way). */
    @Test
    void borrowWithinCohortLetsAQueuePreemptBeyondNominal() {
        Engine e = engine(
                withPreemption(cq("other-alpha", "other", "cpu", "on-demand", 2),
                        new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.LowerPriority, null,
                                WithinClusterQueue.LowerPriority)),
                cq("other-beta", "other", "cpu", "on-demand", 2));
        e.upsertLocalQueue(lq("default", "other", "other-alpha"));
        e.submit(wl("a1", "other", -1, 0, "cpu", 1, 1));
        e.submit(wl("a2", "other", -1, 0, "cpu", 1, 2));
        assertThat(admitted(settle(e, 1))).containsExactlyInAnyOrder(key("a1"), key("a2"));

        e.submit(wl("incoming", "other", 1, 2, "cpu", 1, 3));
        CycleResult r = settle(e, 3);
        // Taking a2 leaves 1 + 3 = 4 CPU: within the cohort's 4, borrowing 2 of other-beta's.
        assertThat(r.evictions()).extracting(Eviction::workload).containsExactly(key("a2"));
    }

    /** Kueue's "other" cohort of these cases: other-alpha preempts (own and reclaim: LowerPriority), other-beta lends. */
    private static KueueCase alphaAndBeta(long alphaGpu, long betaGpu, PreemptionSpec betaPreemption) {
        PreemptionSpec lower = KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.LowerPriority);
        return new KueueCase(false, "on-demand", "spot")
                .cq(KueueCase.queue("other-alpha", "other", lower, null, "gpu",
                        KueueCase.quota("on-demand", "gpu", alphaGpu), KueueCase.quota("spot", "gpu", alphaGpu)))
                .cq(KueueCase.queue("other-beta", "other", betaPreemption, null, "gpu",
                        KueueCase.quota("on-demand", "gpu", betaGpu), KueueCase.quota("spot", "gpu", betaGpu)))
                .lq("eng-alpha", "other", "other-alpha").lq("eng-beta", "other", "other-beta");
    }

    /**
     * "prefer reclamation over cq priority based preemption": on-demand needs a1 of the own queue preempted, spot
     * needs b1 reclaimed (other-beta borrows it); reclamation is the better mode, so Kueue preempts b1 on spot.
     */
    @Test
    void preferReclamationOverCqPriorityBasedPreemption() {
        CycleResult r = alphaAndBeta(10, 0,
                KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.LowerPriority))
                .admitted("eng-alpha", "a1", "other", 50, "gpu", 5, "other-alpha", "on-demand")
                .admitted("eng-beta", "b1", "other", 50, "gpu", 5, "other-beta", "spot")
                .pending("eng-alpha", "preemptor", "other", 100, "gpu", 6)
                .schedule();
        assertThat(KueueCase.evicted(r)).containsExactly("eng-beta/b1 InCohortReclamation");
        assertThat(r.evictions().get(0).message()).contains("due to reclamation within the cohort; preemptor path:"
                + " /other/other-alpha; preemptee path: /other/other-beta");
        assertThat(KueueCase.message(r, "eng-alpha", "preemptor")).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for gpu in flavor on-demand, 1 more needed, insufficient unused quota for"
                + " gpu in flavor spot, 1 more needed. Pending the preemption of 1 workload(s)");
    }

    /**
     * "prefer first preemption flavor when second flavor requires both reclaim and cq priority preemption": spot
     * needs b1 and a2 gone, which is no better than preempting a1 on on-demand, so the first flavor stays.
     */
    @Test
    void preferFirstPreemptionFlavorWhenSecondFlavorRequiresBothReclaimAndCqPriorityPreemption() {
        CycleResult r = alphaAndBeta(10, 0, PreemptionSpec.defaults())
                .admitted("eng-alpha", "a1", "other", 50, "gpu", 5, "other-alpha", "on-demand")
                .admitted("eng-alpha", "a2", "other", 50, "gpu", 5, "other-alpha", "spot")
                .admitted("eng-beta", "b1", "other", 50, "gpu", 5, "other-beta", "spot")
                .pending("eng-alpha", "preemptor", "other", 100, "gpu", 6)
                .schedule();
        assertThat(KueueCase.evicted(r)).containsExactly("eng-alpha/a1 InClusterQueue");
        assertThat(KueueCase.message(r, "eng-alpha", "preemptor")).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for gpu in flavor on-demand, 1 more needed, insufficient unused quota for"
                + " gpu in flavor spot, 6 more needed. Pending the preemption of 1 workload(s)");
    }

    /**
     * "prefer first preemption flavor when second flavor also requires cq preemption": b1, borrowing on spot, has
     * too high a priority to be reclaimed, so spot also needs a preemption in the own queue: the first flavor stays.
     */
    @Test
    void preferFirstPreemptionFlavorWhenSecondFlavorAlsoRequiresCqPreemption() {
        CycleResult r = alphaAndBeta(10, 0, PreemptionSpec.defaults())
                .admitted("eng-alpha", "a1", "other", 50, "gpu", 6, "other-alpha", "on-demand")
                .admitted("eng-alpha", "a2", "other", 50, "gpu", 5, "other-alpha", "spot")
                .admitted("eng-beta", "b1", "other", 9001, "gpu", 5, "other-beta", "spot")
                .pending("eng-alpha", "preemptor", "other", 100, "gpu", 5)
                .schedule();
        assertThat(KueueCase.evicted(r)).containsExactly("eng-alpha/a1 InClusterQueue");
        assertThat(KueueCase.message(r, "eng-alpha", "preemptor")).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for gpu in flavor on-demand, 1 more needed, insufficient unused quota for"
                + " gpu in flavor spot, 5 more needed. Pending the preemption of 1 workload(s)");
    }

    /**
     * The cases of preference: on-demand (5, no borrowing) is held by a lower-priority workload of the own queue,
     * spot (none, borrowing up to 5) is lent by the cohort; both policies are TryNextFlavor.
     */
    private static CycleResult onDemandOrSpot(String prefix, FlavorFungibilityPreference preference,
                                              boolean fairSharing) {
        FlavorFungibility f = new FlavorFungibility(WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor,
                preference);
        return new KueueCase(fairSharing, "on-demand", "spot")
                .cq(KueueCase.queue(prefix + "-cq", prefix + "-cohort",
                        KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.Never), f, "cpu",
                        KueueCase.quota("on-demand", "cpu", 5, 0L), KueueCase.quota("spot", "cpu", 0, 5L)))
                .cq(KueueCase.queue(prefix + "-lender", prefix + "-cohort", null, null, "cpu",
                        KueueCase.quota("on-demand", "cpu", 0), KueueCase.quota("spot", "cpu", 5)))
                .lq("default", prefix + "-queue", prefix + "-cq")
                .admitted("default", "low-" + prefix, prefix + "-queue", -1, "cpu", 5, prefix + "-cq", "on-demand")
                .pending("default", "high-" + prefix, prefix + "-queue", 0, "cpu", 5)
                .schedule();
    }

    /** "PreemptionOverBorrowing preference: preempt in first flavor instead of borrowing in second". */
    @Test
    void preemptionOverBorrowingPreferencePreemptInFirstFlavorInsteadOfBorrowingInSecond() {
        CycleResult r = onDemandOrSpot("pob", FlavorFungibilityPreference.PreemptionOverBorrowing, false);
        assertThat(KueueCase.evicted(r)).containsExactly("default/low-pob InClusterQueue");
        assertThat(r.evictions().get(0).message()).contains("due to prioritization in the ClusterQueue; preemptor path:"
                + " /pob-cohort/pob-cq; preemptee path: /pob-cohort/pob-cq");
        assertThat(r.admissions()).isEmpty();
        assertThat(KueueCase.message(r, "default", "high-pob")).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for cpu in flavor on-demand, 5 more needed. Pending the preemption of 1"
                + " workload(s)");
    }

    /** "BorrowingOverPreemption preference: borrow in second flavor instead of preempting in first". */
    @Test
    void borrowingOverPreemptionPreferenceBorrowInSecondFlavorInsteadOfPreemptingInFirst() {
        CycleResult r = onDemandOrSpot("bop", FlavorFungibilityPreference.BorrowingOverPreemption, false);
        assertThat(r.evictions()).isEmpty();
        assertThat(KueueCase.admitted(r)).containsExactly("default/high-bop bop-cq [spot]");
    }

    /**
     * "PreemptionOverBorrowing preference: select fitting second flavor over first flavor with no preemption
     * candidates": nopc-cq's on-demand is exhausted and may not borrow, and its workload has the preemptor's
     * priority; the idle sibling keeps on-demand one level nearer than spot (in the root), but spot fits.
     */
    @Test
    void preemptionOverBorrowingPreferenceSelectFittingSecondFlavorOverFirstFlavorWithNoPreemptionCandidates() {
        FlavorFungibility pob = new FlavorFungibility(WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor,
                FlavorFungibilityPreference.PreemptionOverBorrowing);
        CycleResult r = new KueueCase(false, "on-demand", "spot")
                .cohort(new CohortSpec("nopc-root", null, List.of(new ResourceGroupSpec(List.of("cpu"), List.of(
                        KueueCase.quota("on-demand", "cpu", 0), KueueCase.quota("spot", "cpu", 5))))))
                .cohort(new CohortSpec("nopc-mid", "nopc-root", List.of()))
                .cq(KueueCase.queue("nopc-cq", "nopc-mid",
                        KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.Never), pob, "cpu",
                        KueueCase.quota("on-demand", "cpu", 5, 0L), KueueCase.quota("spot", "cpu", 0)))
                .cq(KueueCase.queue("nopc-sibling", "nopc-mid", null, null, "cpu",
                        KueueCase.quota("on-demand", "cpu", 5), KueueCase.quota("spot", "cpu", 0)))
                .lq("default", "nopc-queue", "nopc-cq")
                .admitted("default", "admitted-nopc", "nopc-queue", 0, "cpu", 5, "nopc-cq", "on-demand")
                .pending("default", "pending-nopc", "nopc-queue", 0, "cpu", 5)
                .schedule();
        assertThat(r.evictions()).isEmpty();
        assertThat(KueueCase.admitted(r)).containsExactly("default/pending-nopc nopc-cq [spot]");
    }

    private static WorkloadSpec inNamespace(WorkloadSpec w, String namespace) {
        return new WorkloadSpec(new WorkloadKey(namespace, w.key().name()), w.uid(), w.queueName(), w.priority(),
                w.creationTimeMillis(), w.podSets(), w.active());
    }
}
