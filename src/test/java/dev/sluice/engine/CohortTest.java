package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CohortTest {
    private static final FlavorResource CPU_F = new FlavorResource("f", "cpu");

    private static Engine engine(ClusterQueueSpec... cqs) {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        for (ClusterQueueSpec cq : cqs) {
            e.upsertClusterQueue(cq);
            e.upsertLocalQueue(lq("default", "lq-" + cq.name(), cq.name()));
        }
        return e;
    }

    @Test
    void borrowsUnusedQuotaOfTheCohort() {
        Engine e = engine(cq("a", "co", "cpu", "f", 4), cq("b", "co", "cpu", "f", 4));
        e.submit(wl("big", "lq-a", 0, 0, "cpu", 1, 7));
        assertThat(admitted(settle(e, 0))).containsExactly(key("big"));
        e.submit(wl("b1", "lq-b", 0, 1, "cpu", 1, 2));
        CycleResult r = settle(e, 1);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("b1"))).isEqualTo(
                "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor f, 1 more needed");
        assertThat(e.cohortStatus("co").orElseThrow().usage()).containsEntry(CPU_F, units(7));
        assertThat(e.cohortStatus("co").orElseThrow().nominalQuota()).containsEntry(CPU_F, units(8));
        e.finish(key("big"));
        assertThat(admitted(settle(e, 2))).containsExactly(key("b1"));
    }

    @Test
    void withoutCohortThereIsNoBorrowing() {
        Engine e = engine(cq("a", null, "cpu", "f", 4), cq("b", null, "cpu", "f", 4));
        e.submit(wl("big", "lq-a", 0, 0, "cpu", 1, 5));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("big"))).contains("request > maximum capacity (5 > 4)");
    }

    @Test
    void borrowingLimitCapsBorrowing() {
        Engine e = engine(withQuota(cq("a", "co", "cpu", "f", 0), "cpu", "f", 4, 2L, null),
                cq("b", "co", "cpu", "f", 10));
        e.submit(wl("seven", "lq-a", 0, 0, "cpu", 1, 7));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("seven"))).contains("request > maximum capacity (7 > 6)");
        e.submit(wl("six", "lq-a", 0, 1, "cpu", 1, 6));
        assertThat(admitted(settle(e, 1))).containsExactly(key("six"));
    }

    @Test
    void lendingLimitCapsWhatOthersMayBorrow() {
        Engine e = engine(withQuota(cq("a", "co", "cpu", "f", 0), "cpu", "f", 10, null, 3L),
                cq("b", "co", "cpu", "f", 2));
        e.submit(wl("b-big", "lq-b", 0, 0, "cpu", 1, 6));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("b-big"))).contains("request > maximum capacity (6 > 5)");
        e.submit(wl("b-ok", "lq-b", 0, 1, "cpu", 1, 5));
        assertThat(admitted(settle(e, 1))).containsExactly(key("b-ok"));
        // a keeps its 7 guaranteed for itself.
        e.submit(wl("a-7", "lq-a", 0, 2, "cpu", 1, 7));
        assertThat(admitted(settle(e, 2))).containsExactly(key("a-7"));
        e.submit(wl("a-1", "lq-a", 0, 3, "cpu", 1, 1));
        assertThat(settle(e, 3).admissions()).isEmpty();
    }

    @Test
    void nonBorrowingWorkloadsGoFirstInACycle() {
        Engine e = engine(cq("a", "co", "cpu", "f", 2), cq("b", "co", "cpu", "f", 2));
        // Both heads want the same free quota; a's borrows, b's does not: b's wins even with lower priority.
        e.submit(wl("a-borrow", "lq-a", 100, 0, "cpu", 1, 3));
        e.submit(wl("b-own", "lq-b", 0, 1, "cpu", 1, 2));
        CycleResult r = e.schedule(0);
        assertThat(admitted(r)).containsExactly(key("b-own"));
        assertThat(lastMessage(r, key("a-borrow"))).isEqualTo(
                "Workload no longer fits after processing another workload");
    }

    @Test
    void usageIsReleasedOnFinishDeleteAndEvictionDone() {
        Engine e = engine(cq("a", "co", "cpu", "f", 4));
        e.submit(wl("x", "lq-a", 0, 0, "cpu", 1, 4));
        settle(e, 0);
        assertThat(e.clusterQueueStatus("a").flavorsUsage()).containsEntry(CPU_F, units(4));
        e.delete(key("x"));
        assertThat(e.clusterQueueStatus("a").flavorsUsage()).isEmpty();
        assertThat(e.cohortStatus("co").orElseThrow().usage()).isEmpty();
    }
}
