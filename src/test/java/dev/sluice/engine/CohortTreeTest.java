package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cohort trees. The first cases are translated from Kueue v0.19's pkg/scheduler/scheduler_test.go and
 * pkg/scheduler/preemption/preemption_test.go (named after them); the expected outcomes are Kueue's.
 */
class CohortTreeTest {
    private static final FlavorResource CPU = new FlavorResource("default", "cpu");

    private static Engine engine() {
        Engine e = new Engine();
        e.upsertFlavor(flavor("default"));
        return e;
    }

    private static void queue(Engine e, ClusterQueueSpec cq) {
        e.upsertClusterQueue(cq);
        e.upsertLocalQueue(lq("default", "lq-" + cq.name(), cq.name()));
    }

    static CohortSpec cohort(String name, String parent, Long nominal) {
        return new CohortSpec(name, parent, nominal == null ? List.of() : List.of(new ResourceGroupSpec(
                List.of("cpu"), List.of(new FlavorQuotas("default",
                        List.of(new ResourceQuota("cpu", units(nominal)))))))); 
    }

    /** Kueue: "hierarchical cohort respects lending limit when borrowing". */
    @Test
    void lendingLimitBoundsWhatATreeLends() {
        Engine e = engine();
        e.upsertCohort(cohort("root", null, null));
        e.upsertCohort(cohort("child", "root", null));
        queue(e, withQuota(cq("cq-lender", "child", "cpu", "default", 0), "cpu", "default", 10, null, 3L));
        queue(e, withQuota(cq("cq-borrower", "child", "cpu", "default", 0), "cpu", "default", 5, 10L, null));
        e.submit(wl("wl-existing", "lq-cq-borrower", 0, 0, "cpu", 1, 5));
        assertThat(admitted(settle(e, 1))).containsExactly(key("wl-existing"));

        e.submit(wl("wl-pending", "lq-cq-borrower", 0, 1, "cpu", 1, 4));
        CycleResult r = settle(e, 2);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("wl-pending"))).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for cpu in flavor default, 1 more needed");
    }

    /** Kueue: "hierarchical cohort allows borrowing up to lending limit". */
    @Test
    void borrowingUpToTheLendingLimitIsAdmitted() {
        Engine e = engine();
        e.upsertCohort(cohort("root", null, null));
        e.upsertCohort(cohort("child", "root", null));
        queue(e, withQuota(cq("cq-lender", "child", "cpu", "default", 0), "cpu", "default", 10, null, 5L));
        queue(e, withQuota(cq("cq-borrower", "child", "cpu", "default", 0), "cpu", "default", 5, 10L, null));
        e.submit(wl("wl-existing", "lq-cq-borrower", 0, 0, "cpu", 1, 5));
        settle(e, 1);
        e.submit(wl("wl-borrowing", "lq-cq-borrower", 0, 1, "cpu", 1, 5));
        assertThat(admitted(settle(e, 2))).containsExactly(key("wl-borrowing"));
    }

    /**
     * Kueue: "in a hierarchical cohort, workload borrowing less is scheduled first": the GUARANTEED cohort's own
     * 4 CPU are a pool for its subtree; the queue below it borrows at level 1, best-effort (under ROOT) at level 2.
     */
    @Test
    void borrowingLessInTheTreeGoesFirst() {
        Engine e = engine();
        e.upsertCohort(cohort("root", null, null));
        e.upsertCohort(cohort("guaranteed", "root", 4L));
        queue(e, cq("guaranteed", "guaranteed", "cpu", "default", 0));
        queue(e, cq("best-effort", "root", "cpu", "default", 0));
        e.submit(wl("guaranteed", "lq-guaranteed", 0, 0, "cpu", 1, 4));
        e.submit(wl("best-effort", "lq-best-effort", 3, 0, "cpu", 1, 4));
        CycleResult r = e.schedule(1);
        assertThat(admitted(r)).containsExactly(key("guaranteed"));
        assertThat(lastMessage(r, key("best-effort")))
                .isEqualTo("Workload no longer fits after processing another workload");
    }

    /** Kueue preemption_test "long range preemption": reclaim across two levels of the tree. */
    @Test
    void longRangePreemptionReclaimsAcrossTheTree() {
        Engine e = engine();
        e.upsertCohort(cohort("cohort-left", "root", null));
        e.upsertCohort(cohort("cohort-right", "root", null));
        queue(e, withPreemption(cq("cq-left", "cohort-left", "cpu", "default", 10),
                new PreemptionSpec(ReclaimWithinCohort.Any, null, null, null)));
        queue(e, cq("cq-right", "cohort-right", "cpu", "default", 0));
        e.submit(wl("to-be-preempted", "lq-cq-right", 0, 0, "cpu", 1, 5));
        assertThat(admitted(settle(e, 1))).containsExactly(key("to-be-preempted"));

        e.submit(wl("incoming", "lq-cq-left", 0, 1, "cpu", 1, 8));
        CycleResult r = settle(e, 2);
        assertThat(r.evictions()).hasSize(1);
        Eviction ev = r.evictions().get(0);
        assertThat(ev.workload()).isEqualTo(key("to-be-preempted"));
        assertThat(ev.preemptionReason()).isEqualTo(PreemptionReason.InCohortReclamation);
        // Kueue v0.19 names both queues by their path from the root (buildCQPath), the implicit root included
        assertThat(ev.message()).isEqualTo("Preempted to accommodate a workload (UID: uid-incoming, JobUID: UNKNOWN)"
                + " due to reclamation within the cohort; preemptor path: /root/cohort-left/cq-left;"
                + " preemptee path: /root/cohort-right/cq-right");
        e.evictionDone(key("to-be-preempted"), 3);
        assertThat(admitted(settle(e, 4))).containsExactly(key("incoming"));
    }

    @Test
    void aCohortsOwnQuotaIsAPoolForItsSubtreeOnly() {
        Engine e = engine();
        e.upsertCohort(cohort("org", null, null));
        e.upsertCohort(cohort("team-a", "org", 6L));
        queue(e, cq("a1", "team-a", "cpu", "default", 0));
        queue(e, cq("b1", "org", "cpu", "default", 0));
        e.submit(wl("a-job", "lq-a1", 0, 0, "cpu", 1, 6));
        assertThat(admitted(settle(e, 1))).containsExactly(key("a-job"));
        e.finish(key("a-job"));
        // team-a lends its pool upwards (no lendingLimit): b1 may borrow it when idle.
        e.submit(wl("b-job", "lq-b1", 0, 2, "cpu", 1, 6));
        assertThat(admitted(settle(e, 3))).containsExactly(key("b-job"));
    }

    @Test
    void aLendingLimitOnACohortKeepsPartOfItsPoolToItsSubtree() {
        Engine e = engine();
        e.upsertCohort(cohort("org", null, null));
        e.upsertCohort(new CohortSpec("team-a", "org", List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("default", List.of(new ResourceQuota("cpu", units(6), null, units(2)))))))));
        queue(e, cq("a1", "team-a", "cpu", "default", 0));
        queue(e, cq("b1", "org", "cpu", "default", 0));
        e.submit(wl("b-job", "lq-b1", 0, 0, "cpu", 1, 3));
        CycleResult r = settle(e, 1);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("b-job"))).contains("request > maximum capacity (3 > 2)");
        e.submit(wl("a-job", "lq-a1", 0, 0, "cpu", 1, 6));
        assertThat(admitted(settle(e, 2))).containsExactly(key("a-job"));
    }

    @Test
    void aBorrowingLimitOnACohortCapsWhatItsSubtreeTakesFromAbove() {
        Engine e = engine();
        e.upsertCohort(cohort("org", null, null));
        e.upsertCohort(new CohortSpec("team-a", "org", List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("default", List.of(new ResourceQuota("cpu", units(2), units(1), null))))))));
        queue(e, cq("a1", "team-a", "cpu", "default", 0));
        queue(e, cq("b1", "org", "cpu", "default", 10));
        e.submit(wl("a-job", "lq-a1", 0, 0, "cpu", 1, 4));
        CycleResult r = settle(e, 1);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("a-job"))).contains("request > maximum capacity (4 > 3)");
        e.submit(wl("a-small", "lq-a1", 0, 1, "cpu", 1, 3));
        assertThat(admitted(settle(e, 2))).containsExactly(key("a-small"));
    }

    @Test
    void anImplicitCohortHasNoQuotaAndDeletingTheObjectMakesItImplicit() {
        Engine e = engine();
        e.upsertCohort(cohort("team", null, 4L));
        queue(e, cq("q", "team", "cpu", "default", 0));
        e.submit(wl("w", "lq-q", 0, 0, "cpu", 1, 4));
        assertThat(admitted(settle(e, 1))).containsExactly(key("w"));
        e.deleteCohort("team");
        assertThat(e.cohortNames()).containsExactly("team");
        e.finish(key("w"));
        e.submit(wl("w2", "lq-q", 0, 2, "cpu", 1, 4));
        CycleResult r = settle(e, 3);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("w2"))).contains("request > maximum capacity (4 > 0)");
    }

    @Test
    void aCycleOfParentsMakesItsQueuesInactiveAndBreakingItRevivesThem() {
        Engine e = engine();
        e.upsertCohort(cohort("a", "b", 4L));
        e.upsertCohort(cohort("b", "a", null));
        queue(e, cq("q", "a", "cpu", "default", 2));
        ClusterQueueStatus s = e.clusterQueueStatus("q");
        assertThat(s.active()).isFalse();
        assertThat(s.reason()).isEqualTo("CohortHasCycle");
        assertThat(s.message()).isEqualTo("Can't admit new workloads: cohort a is in a cycle of parents: a -> b -> a.");
        e.submit(wl("w", "lq-q", 0, 0, "cpu", 1, 1));
        CycleResult r = settle(e, 1);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("w"))).isEqualTo("ClusterQueue q is inactive");

        e.upsertCohort(cohort("b", null, null));
        assertThat(e.clusterQueueStatus("q").active()).isTrue();
        assertThat(admitted(settle(e, 2))).containsExactly(key("w"));
    }

    @Test
    void usageClimbsBeyondLocalQuotaAndComesBack() {
        Engine e = engine();
        e.upsertCohort(cohort("root", null, null));
        e.upsertCohort(cohort("mid", "root", 2L));
        queue(e, cq("q", "mid", "cpu", "default", 3));
        queue(e, cq("other", "root", "cpu", "default", 5));
        e.submit(wl("w", "lq-q", 0, 0, "cpu", 1, 7));
        assertThat(admitted(settle(e, 1))).containsExactly(key("w"));
        e.submit(wl("x", "lq-other", 0, 1, "cpu", 1, 4));
        CycleResult r = settle(e, 2);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("x"))).contains("1 more needed");
        e.finish(key("w"));
        assertThat(admitted(settle(e, 3))).containsExactly(key("x"));
        assertThat(e.clusterQueueStatus("q").flavorsUsage()).doesNotContainKey(CPU);
    }
}
