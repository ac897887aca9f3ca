package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Fair sharing. The preemption cases are translated from Kueue v0.19's
 * pkg/scheduler/preemption/preemption_fair_test.go (TestFairPreemptions, its baseCQs: a, b, c with 3 CPU each and
 * "preemptible" with 0, all in cohort "all"); the expected victims and reasons are Kueue's.
 */
class FairSharingTest {
    private static final PreemptionReason RECLAIM = PreemptionReason.InCohortReclamation;
    private static final PreemptionReason FAIR = PreemptionReason.InCohortFairSharing;
    private static final PreemptionReason IN_CQ = PreemptionReason.InClusterQueue;

    private static Engine baseCqs() {
        Engine e = new Engine(FairSharing.on());
        e.upsertFlavor(flavor("default"));
        PreemptionSpec p = new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.LowerPriority, -3,
                WithinClusterQueue.LowerPriority);
        for (String name : List.of("a", "b", "c")) {
            e.upsertClusterQueue(withPreemption(cq(name, "all", "cpu", "default", 3), p));
            e.upsertLocalQueue(lq("default", name, name));
        }
        e.upsertClusterQueue(cq("preemptible", "all", "cpu", "default", 0));
        return e;
    }

    /** An admitted workload of one pod using milliCpu in cq (Kueue's SimpleReserveQuota at the same time). */
    private static void admitted(Engine e, String name, String cq, long milliCpu, int priority) {
        WorkloadSpec w = new WorkloadSpec(key(name), "uid-" + name, cq, priority, 0,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", milliCpu))), true);
        e.restoreAdmitted(w, new Assignment(cq, List.of(new PodSetAssignment("main", Map.of("cpu", "default"),
                Map.of("cpu", milliCpu), 1))), 0);
    }

    private static void admitted(Engine e, String name, String cq, long milliCpu) {
        admitted(e, name, cq, milliCpu, 0);
    }

    /** Submits the incoming workload and returns the victims of the first cycle with their reasons. */
    private static Map<String, PreemptionReason> incoming(Engine e, String name, String cq, long milliCpu) {
        e.submit(new WorkloadSpec(key(name), "uid-" + name, cq, 0, 1,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", milliCpu))), true));
        CycleResult r = e.schedule(2);
        assertThat(r.admissions()).isEmpty();
        Map<String, PreemptionReason> out = new TreeMap<>();
        for (Eviction ev : r.evictions()) {
            assertThat(ev.preemptor()).isEqualTo(key(name));
            out.put(ev.workload().name(), ev.preemptionReason());
        }
        return out;
    }

    private static void units(Engine e, String cq, String... names) {
        for (String n : names) {
            admitted(e, n, cq, 1000);
        }
    }

    @Test
    void reclaimNominalFromUserUsingTheMost() {
        Engine e = baseCqs();
        units(e, "a", "a1", "a2", "a3");
        units(e, "b", "b1", "b2", "b3", "b4", "b5");
        units(e, "c", "c1");
        assertThat(incoming(e, "c_incoming", "c", 1000)).isEqualTo(Map.of("b1", RECLAIM));
    }

    @Test
    void reclaimBorrowableQuotaFromUserUsingTheMost() {
        Engine e = baseCqs();
        units(e, "a", "a1", "a2", "a3");
        units(e, "b", "b1", "b2", "b3", "b4", "b5");
        units(e, "c", "c1");
        assertThat(incoming(e, "a_incoming", "a", 1000)).isEqualTo(Map.of("b1", FAIR));
    }

    @Test
    void preemptOneFromEachClusterQueueBorrowing() {
        Engine e = baseCqs();
        admitted(e, "a1", "a", 500);
        admitted(e, "a2", "a", 500);
        admitted(e, "a3", "a", 3000);
        admitted(e, "b1", "b", 500);
        admitted(e, "b2", "b", 500);
        admitted(e, "b3", "b", 3000);
        assertThat(incoming(e, "c_incoming", "c", 2000)).isEqualTo(Map.of("a1", RECLAIM, "b1", RECLAIM));
    }

    @Test
    void cannotPreemptWhenEveryoneIsUnderNominal() {
        Engine e = baseCqs();
        units(e, "a", "a1", "a2", "a3");
        units(e, "b", "b1", "b2", "b3");
        units(e, "c", "c1", "c2", "c3");
        assertThat(incoming(e, "c_incoming", "c", 1000)).isEmpty();
    }

    @Test
    void cannotPreemptWhenItWouldSwitchTheImbalance() {
        Engine e = baseCqs();
        units(e, "a", "a1", "a2", "a3");
        units(e, "b", "b1", "b2", "b3", "b4", "b5");
        assertThat(incoming(e, "a_incoming", "a", 2000)).isEmpty();
    }

    @Test
    void canPreemptLowerPriorityWorkloadsFromTheSameQueue() {
        Engine e = baseCqs();
        admitted(e, "a1_low", "a", 1000, -1);
        admitted(e, "a2_low", "a", 1000, -1);
        units(e, "a", "a3", "a4");
        units(e, "b", "b1", "b2", "b3", "b4", "b5");
        assertThat(incoming(e, "a_incoming", "a", 2000)).isEqualTo(Map.of("a1_low", IN_CQ, "a2_low", IN_CQ));
    }

    @Test
    void canPreemptACombinationOfSameQueueAndHighestUser() {
        Engine e = baseCqs();
        admitted(e, "a_low", "a", 1000, -1);
        units(e, "a", "a2", "a3");
        units(e, "b", "b1", "b2", "b3", "b4", "b5", "b6");
        assertThat(incoming(e, "a_incoming", "a", 2000)).isEqualTo(Map.of("a_low", IN_CQ, "b1", FAIR));
    }

    @Test
    void preemptAHugeWorkloadIfTheTargetGetsALowerShare() {
        Engine e = baseCqs();
        admitted(e, "b1", "b", 9000);
        assertThat(incoming(e, "a_incoming", "a", 2000)).isEqualTo(Map.of("b1", RECLAIM));
    }

    @Test
    void cannotPreemptAHugeWorkloadIfTheIncomingIsAlsoHuge() {
        Engine e = baseCqs();
        admitted(e, "a1", "a", 2000);
        admitted(e, "b1", "b", 7000);
        assertThat(incoming(e, "a_incoming", "a", 5000)).isEmpty();
    }

    @Test
    void cannotPreemptTwoSmallerWorkloadsIfTheIncomingIsHuge() {
        Engine e = baseCqs();
        admitted(e, "b1", "b", 2000);
        admitted(e, "b2", "b", 2000);
        admitted(e, "b3", "b", 3000);
        assertThat(incoming(e, "a_incoming", "a", 6000)).isEmpty();
    }

    @Test
    void preemptFromTargetAndOthersEvenIfOverNominal() {
        Engine e = baseCqs();
        admitted(e, "a1_low", "a", 2000, -1);
        admitted(e, "a2_low", "a", 1000, -1);
        admitted(e, "b1", "b", 3000);
        admitted(e, "b2", "b", 3000);
        assertThat(incoming(e, "a_incoming", "a", 4000)).isEqualTo(Map.of("a1_low", IN_CQ, "b1", FAIR));
    }

    @Test
    void preferToPreemptWorkloadsThatDoNotMakeTheTargetTheBiggestShare() {
        Engine e = baseCqs();
        admitted(e, "b1", "b", 2000);
        admitted(e, "b2", "b", 1000);
        admitted(e, "b3", "b", 2000);
        admitted(e, "c1", "c", 1000);
        assertThat(incoming(e, "a_incoming", "a", 3500)).isEqualTo(Map.of("b2", FAIR));
    }

    @Test
    void preemptFromDifferentQueuesIfTheEndResultHasASmallerMaxShare() {
        Engine e = baseCqs();
        admitted(e, "b1", "b", 2000);
        admitted(e, "b2", "b", 2500);
        admitted(e, "c1", "c", 2000);
        admitted(e, "c2", "c", 2500);
        assertThat(incoming(e, "a_incoming", "a", 3500)).isEqualTo(Map.of("b1", FAIR, "c1", FAIR));
    }

    @Test
    void theScenarioAboveDoesNotFlap() {
        Engine e = baseCqs();
        admitted(e, "a1", "a", 3500);
        admitted(e, "b2", "b", 2500);
        admitted(e, "c2", "c", 2500);
        assertThat(incoming(e, "b_incoming", "b", 2000)).isEmpty();
    }

    @Test
    void weightedShareIsReadableAndZeroWithinNominal() {
        Engine e = baseCqs();
        units(e, "a", "a1", "a2", "a3");
        units(e, "b", "b1", "b2", "b3", "b4", "b5");
        // b borrows 2 CPU of the 9 the cohort could lend it (12 minus its own 3): ceil(2000/9) = 223.
        assertThat(e.clusterQueueWeightedShare("b")).hasValue(223);
        assertThat(e.clusterQueueWeightedShare("a")).hasValue(0);
        assertThat(e.cohortWeightedShare("all")).hasValue(0);
    }

    /**
     * Kueue scheduler_fs_test "fair sharing schedule workload with lowest drf after admission" (cohort A holds 100
     * CPU, b and c none): b with b1 would hold 60 % of what A lends, c with c1 75 %: b1 goes first, c1 no longer
     * fits. Here c1 is also the older one, so FIFO order alone would have taken it first.
     */
    @Test
    void theHeadWithTheLowestShareAfterAdmissionGoesFirst() {
        for (boolean fair : new boolean[] {true, false}) {
            Engine e = new Engine(fair ? FairSharing.on() : FairSharing.OFF);
            e.upsertFlavor(flavor("on-demand"));
            e.upsertCohort(new CohortSpec("A", null, List.of(new ResourceGroupSpec(List.of("cpu"), List.of(
                    new FlavorQuotas("on-demand", List.of(new ResourceQuota("cpu", 100_000))))))));
            for (String q : List.of("b", "c")) {
                e.upsertClusterQueue(cq(q, "A", "cpu", "on-demand", 0));
                e.upsertLocalQueue(lq("default", "lq-" + q, q));
            }
            WorkloadSpec b0 = wl("b0", "lq-b", 0, 0, "cpu", 1, 10);
            e.restoreAdmitted(b0, new Assignment("b", List.of(new PodSetAssignment("main",
                    Map.of("cpu", "on-demand"), Map.of("cpu", 10_000L), 1))), 0);
            e.submit(wl("c1", "lq-c", 0, 1, "cpu", 1, 75));
            e.submit(wl("b1", "lq-b", 0, 2, "cpu", 1, 50));
            CycleResult r = e.schedule(3);
            assertThat(Fixtures.admitted(r)).as("fair sharing %s", fair).containsExactly(key(fair ? "b1" : "c1"));
            assertThat(lastMessage(r, key(fair ? "c1" : "b1")))
                    .isEqualTo("Workload no longer fits after processing another workload");
        }
    }

    /** A weight of 0 borrows only idle capacity: its head goes after any weighted one that borrows. */
    @Test
    void aZeroWeightQueueGoesLast() {
        Engine e = new Engine(FairSharing.on());
        e.upsertFlavor(flavor("on-demand"));
        e.upsertCohort(new CohortSpec("A", null, List.of(new ResourceGroupSpec(List.of("cpu"), List.of(
                new FlavorQuotas("on-demand", List.of(new ResourceQuota("cpu", 10_000))))))));
        ClusterQueueSpec zero = cq("z", "A", "cpu", "on-demand", 0);
        e.upsertClusterQueue(new ClusterQueueSpec(zero.name(), zero.cohort(), zero.resourceGroups(),
                zero.queueingStrategy(), zero.namespaceSelector(), zero.preemption(), zero.flavorFungibility(),
                zero.stopPolicy(), 0.0));
        e.upsertClusterQueue(cq("w", "A", "cpu", "on-demand", 0));
        e.upsertLocalQueue(lq("default", "lq-z", "z"));
        e.upsertLocalQueue(lq("default", "lq-w", "w"));
        e.submit(wl("z1", "lq-z", 5, 0, "cpu", 1, 6));
        e.submit(wl("w1", "lq-w", 0, 1, "cpu", 1, 9));
        CycleResult r = e.schedule(2);
        assertThat(Fixtures.admitted(r)).containsExactly(key("w1"));
        assertThat(e.clusterQueueWeightedShare("w")).hasValue(900);
    }
}
