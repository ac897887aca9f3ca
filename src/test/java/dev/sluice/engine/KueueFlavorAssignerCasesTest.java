package dev.sluice.engine;

import static dev.sluice.engine.FlavorAssigner.PreemptionMode.FIT;
import static dev.sluice.engine.FlavorAssigner.PreemptionMode.PREEMPT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.FlavorAssigner.Granular;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cases translated from Kueue v0.19's pkg/scheduler/flavorassigner/flavorassigner_test.go. Where Kueue's test gives
 * the preemption oracle's answer by hand (testOracle), here the same answer comes from real workloads: one of the
 * own queue where Kueue's oracle says Preempt, one of a borrowing queue of the cohort where it says Reclaim.
 */
class KueueFlavorAssignerCasesTest {

    private static final List<String> FLAVORS = List.of("uno", "due", "tre");

    /**
     * TestReclaimBeforePriorityPreemption's world: test-clusterqueue with 10 compute and 10 gpu in each flavor,
     * other-clusterqueue with none (all it uses it borrows); the preemptor asks for 10 gpu (and maybe 10 compute).
     */
    private static KueueCase reclaimWorld(WhenCanPreempt whenCanPreempt) {
        List<FlavorQuotas> quotas = FLAVORS.stream().map(f -> new FlavorQuotas(f, List.of(
                new ResourceQuota("compute", 10_000), new ResourceQuota("gpu", 10_000)))).toList();
        List<FlavorQuotas> none = FLAVORS.stream().map(f -> new FlavorQuotas(f, List.of(
                new ResourceQuota("compute", 0), new ResourceQuota("gpu", 0)))).toList();
        ClusterQueueSpec test = new ClusterQueueSpec("test-clusterqueue", "cohort",
                List.of(new ResourceGroupSpec(List.of("compute", "gpu"), quotas)), QueueingStrategy.BestEffortFIFO,
                LabelSelector.everything(),
                KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.LowerPriority),
                new FlavorFungibility(null, whenCanPreempt), StopPolicy.None);
        ClusterQueueSpec other = new ClusterQueueSpec("other-clusterqueue", "cohort",
                List.of(new ResourceGroupSpec(List.of("compute", "gpu"), none)), QueueingStrategy.BestEffortFIFO,
                LabelSelector.everything(), null, null, StopPolicy.None);
        return new KueueCase(false, FLAVORS.toArray(String[]::new)).cq(test).cq(other)
                .lq("default", "test", "test-clusterqueue").lq("default", "other", "other-clusterqueue");
    }

    /** One gpu used in the queue (test) or borrowed by the other queue (other) in each named flavor. */
    private static KueueCase gpuUsage(KueueCase c, String queue, String... flavors) {
        String cq = queue.equals("test") ? "test-clusterqueue" : "other-clusterqueue";
        for (String f : flavors) {
            c.admitted("default", queue + "-" + f, queue, -1, "gpu", 1, cq, f);
        }
        return c;
    }

    private static CycleResult preemptorOf10Gpu(KueueCase c) {
        return c.pending("default", "preemptor", "test", 0, "gpu", 10).schedule();
    }

    /** The flavor the preemptor was given, or whose victims it preempts (the victims' flavors). */
    private static String chosen(CycleResult r) {
        if (!r.admissions().isEmpty()) {
            return "fit " + r.admissions().get(0).assignment().podSets().get(0).flavors();
        }
        return "preempt " + KueueCase.evicted(r);
    }

    /** "Select first flavor which fits". */
    @Test
    void selectFirstFlavorWhichFits() {
        KueueCase c = gpuUsage(gpuUsage(reclaimWorld(null), "test", "uno"), "other", "due");
        assertThat(chosen(preemptorOf10Gpu(c))).isEqualTo("fit {gpu=tre}");
    }

    /** "Select first flavor where gpu reclamation is possible": uno needs preemption, due (and tre) reclamation. */
    @Test
    void selectFirstFlavorWhereGpuReclamationIsPossible() {
        KueueCase c = gpuUsage(gpuUsage(reclaimWorld(null), "test", "uno"), "other", "due", "tre");
        assertThat(chosen(preemptorOf10Gpu(c))).isEqualTo("preempt [default/other-due InCohortReclamation]");
    }

    /** "Select first flavor when flavor fungibility is disabled": whenCanPreempt MayStopSearch stops at uno. */
    @Test
    void selectFirstFlavorWhenFlavorFungibilityIsDisabled() {
        KueueCase c = gpuUsage(gpuUsage(reclaimWorld(WhenCanPreempt.Preempt), "test", "uno"), "other", "due", "tre");
        assertThat(chosen(preemptorOf10Gpu(c))).isEqualTo("preempt [default/test-uno InClusterQueue]");
    }

    /** "Select first flavor where priority based preemption is possible": every flavor needs it; the first wins. */
    @Test
    void selectFirstFlavorWherePriorityBasedPreemptionIsPossible() {
        KueueCase c = gpuUsage(reclaimWorld(null), "test", "uno", "due", "tre");
        assertThat(chosen(preemptorOf10Gpu(c))).isEqualTo("preempt [default/test-uno InClusterQueue]");
    }

    /**
     * "Select second flavor where gpu reclamation is possible, as compute Fits": a flavor is as good as its worst
     * resource: due reclaims gpu but must preempt for compute; tre reclaims gpu and fits compute.
     */
    @Test
    void selectSecondFlavorWhereGpuReclamationIsPossibleAsComputeFits() {
        KueueCase c = reclaimWorld(null)
                .admitted("default", "test-uno", "test", -1, "test-clusterqueue",
                        Map.of("gpu", "uno", "compute", "uno"), Map.of("gpu", 1L, "compute", 1L))
                .admitted("default", "test-due", "test", -1, "test-clusterqueue", Map.of("compute", "due"),
                        Map.of("compute", 1L));
        gpuUsage(c, "other", "due", "tre");
        CycleResult r = c.pending(new WorkloadSpec(new WorkloadKey("default", "preemptor"), "wl-preemptor", "test", 0,
                0, List.of(PodSetSpec.of("main", 1, Map.of("gpu", 10_000L, "compute", 10_000L))), true)).schedule();
        assertThat(KueueCase.evicted(r)).containsExactly("default/other-tre InCohortReclamation");
    }
    /*
     * TestIsPreferred. Its cases with noPreemptionCandidates are not here: a flavor where preemption finds no
     * candidates is never chosen (see selectDeeperBorrowingFlavorThatFitsWhenShallowerBorrowingFlavorHasNoPreemption
     * Candidates and the scheduler case "PreemptionOverBorrowing preference: select fitting second flavor over first
     * flavor with no preemption candidates"), which is what Kueue's ranking of it below every viable mode gives.
     */

    /** "feature gate disabled prioritises preemption": with no preference, fit beats preemption. */
    @Test
    void featureGateDisabledPrioritisesPreemption() {
        assertThat(FlavorAssigner.isPreferred(new Granular(FIT, 0), new Granular(PREEMPT, 0), null)).isTrue();
    }

    /** "explicit BorrowingOverPreemption prioritises borrowing distance": the mode comes first. */
    @Test
    void explicitBorrowingOverPreemptionPrioritisesBorrowingDistance() {
        assertThat(FlavorAssigner.isPreferred(new Granular(PREEMPT, 1), new Granular(FIT, 2),
                FlavorFungibilityPreference.BorrowingOverPreemption)).isFalse();
    }

    /** "explicit PreemptionOverBorrowing prioritises lower preemption": the borrowing level comes first. */
    @Test
    void explicitPreemptionOverBorrowingPrioritisesLowerPreemption() {
        assertThat(FlavorAssigner.isPreferred(new Granular(PREEMPT, 1), new Granular(FIT, 2),
                FlavorFungibilityPreference.PreemptionOverBorrowing)).isTrue();
    }

    /** "explicit PreemptionOverBorrowing breaks borrowing ties with preemption". */
    @Test
    void explicitPreemptionOverBorrowingBreaksBorrowingTiesWithPreemption() {
        assertThat(FlavorAssigner.isPreferred(new Granular(PREEMPT, 1), new Granular(FIT, 1),
                FlavorFungibilityPreference.PreemptionOverBorrowing)).isFalse();
    }

    /**
     * TestHierarchical's "Select deeper-borrowing flavor that fits when shallower-borrowing flavor has no preemption
     * candidates": cohorts one under two under three, each with 4 cpu of its own flavor; the queue (in one) holds 4
     * of one, which it may not borrow beyond, with a workload of the preemptor's priority (no candidate). Under
     * PreemptionOverBorrowing one would borrow least, but cannot admit: two, which fits, is chosen.
     */
    @Test
    void selectDeeperBorrowingFlavorThatFitsWhenShallowerBorrowingFlavorHasNoPreemptionCandidates() {
        FlavorFungibility pob = new FlavorFungibility(WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor,
                FlavorFungibilityPreference.PreemptionOverBorrowing);
        ClusterQueueSpec test = KueueCase.queue("test-clusterqueue", "one",
                KueueCase.preemption(WithinClusterQueue.LowerPriority, ReclaimWithinCohort.LowerPriority), pob, "cpu",
                KueueCase.quota("one", "cpu", 4, 0L), KueueCase.quota("two", "cpu", 0),
                KueueCase.quota("three", "cpu", 0));
        ClusterQueueSpec other = KueueCase.queue("other-clusterqueue", "two", null, null, "cpu",
                KueueCase.quota("one", "cpu", 0), KueueCase.quota("two", "cpu", 0), KueueCase.quota("three", "cpu", 0));
        CycleResult r = new KueueCase(false, "one", "two", "three")
                .cohort(new CohortSpec("three", null, List.of(new ResourceGroupSpec(List.of("cpu"),
                        List.of(KueueCase.quota("three", "cpu", 4))))))
                .cohort(new CohortSpec("two", "three", List.of(new ResourceGroupSpec(List.of("cpu"),
                        List.of(KueueCase.quota("two", "cpu", 4))))))
                .cohort(new CohortSpec("one", "two", List.of(new ResourceGroupSpec(List.of("cpu"),
                        List.of(KueueCase.quota("one", "cpu", 4))))))
                .cq(test).cq(other).lq("default", "test", "test-clusterqueue")
                .admitted("default", "holder", "test", 0, "cpu", 4, "test-clusterqueue", "one")
                .pending("default", "incoming", "test", 0, "cpu", 4)
                .schedule();
        assertThat(KueueCase.admitted(r)).containsExactly("default/incoming test-clusterqueue [two]");
    }
    /**
     * TestAssignFlavors' "when borrowing while preemption is needed for flavor one, fair sharing enabled,
     * reclaimWithinCohort=Never" (canPreemptWhileBorrowing): with fair sharing a queue may preempt while borrowing
     * only if it may reclaim. Kueue's case has no candidate at all on flavor one; here the queue holds a lower-priority
     * workload there (withinClusterQueue LowerPriority), so only the rule keeps flavor one from preempting it: it does
     * not fit, and the workload takes flavor two. With reclaimWithinCohort Any (the case beside it) flavor one preempts.
     */
    @Test
    void whenBorrowingWhilePreemptionIsNeededForFlavorOneFairSharingEnabledReclaimWithinCohortNever() {
        for (ReclaimWithinCohort reclaim : List.of(ReclaimWithinCohort.Never, ReclaimWithinCohort.Any)) {
            FlavorFungibility stop = new FlavorFungibility(WhenCanBorrow.Borrow, WhenCanPreempt.Preempt);
            CycleResult r = new KueueCase(true, "one", "two")
                    .cq(KueueCase.queue("test-clusterqueue", "test-cohort",
                            KueueCase.preemption(WithinClusterQueue.LowerPriority, reclaim), stop, "cpu",
                            KueueCase.quota("one", "cpu", 2), KueueCase.quota("two", "cpu", 12)))
                    .cq(KueueCase.queue("test-secondary-clusterqueue", "test-cohort", null, null, "cpu",
                            KueueCase.quota("one", "cpu", 12)))
                    .lq("default", "test", "test-clusterqueue").lq("default", "secondary", "test-secondary-clusterqueue")
                    .admitted("default", "low", "test", -1, "cpu", 2, "test-clusterqueue", "one")
                    .admitted("default", "other", "secondary", 0, "cpu", 2, "test-secondary-clusterqueue", "one")
                    .pending("default", "incoming", "test", 0, "cpu", 12)
                    .schedule();
            if (reclaim == ReclaimWithinCohort.Never) {
                assertThat(r.evictions()).as("reclaim %s", reclaim).isEmpty();
                assertThat(KueueCase.admitted(r)).containsExactly("default/incoming test-clusterqueue [two]");
            } else {
                assertThat(KueueCase.evicted(r)).as("reclaim %s", reclaim).containsExactly("default/low InClusterQueue");
            }
        }
    }
}
