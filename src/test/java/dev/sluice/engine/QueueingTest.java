package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueingTest {

    private static Engine engine(ClusterQueueSpec cq) {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        e.upsertClusterQueue(cq);
        e.upsertLocalQueue(lq("default", "lq", cq.name()));
        return e;
    }

    @Test
    void bestEffortFifoLetsSmallerWorkloadsPastABlockedHead() {
        Engine e = engine(cq("q", null, "cpu", "f", 4));
        e.submit(wl("running", "lq", 0, 0, "cpu", 1, 2));
        settle(e, 0);
        e.submit(wl("big", "lq", 0, 1, "cpu", 1, 4));
        e.submit(wl("small", "lq", 0, 2, "cpu", 1, 2));
        CycleResult r = settle(e, 1);
        assertThat(admitted(r)).containsExactly(key("small"));
        assertThat(e.clusterQueueStatus("q").inadmissibleWorkloads()).isEqualTo(1);
    }

    @Test
    void strictFifoBlocksOnItsHead() {
        Engine e = engine(withStrategy(cq("q", null, "cpu", "f", 4), QueueingStrategy.StrictFIFO));
        e.submit(wl("running", "lq", 0, 0, "cpu", 1, 2));
        settle(e, 0);
        e.submit(wl("big", "lq", 0, 1, "cpu", 1, 4));
        e.submit(wl("small", "lq", 0, 2, "cpu", 1, 2));
        CycleResult r = settle(e, 1);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("big"))).contains("2 more needed");
        e.finish(key("running"));
        assertThat(admitted(settle(e, 2))).containsExactly(key("big"));
    }

    @Test
    void blockAdmissionAdmitsOneHeadPerCycleAndTheNextSaysItWaitsForPodsReady() {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        e.upsertClusterQueue(cq("qa", null, "cpu", "f", 4));
        e.upsertClusterQueue(cq("qb", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "la", "qa"));
        e.upsertLocalQueue(lq("default", "lb", "qb"));
        e.submit(wl("a", "la", 0, 0, "cpu", 1, 1));
        e.submit(wl("b", "lb", 0, 1, "cpu", 1, 1));
        CycleResult one = e.schedule(2, 1);
        assertThat(admitted(one)).as("two heads of two queues fit; one is admitted").containsExactly(key("a"));
        assertThat(one.pending()).filteredOn(p -> p.workload().equals(key("b"))).last()
                .satisfies(p -> assertThat(p.reason()).isEqualTo(PendingReason.WaitingForPodsReady))
                .satisfies(p -> assertThat(p.message())
                        .isEqualTo("waiting for all admitted workloads to be in PodsReady condition"));
        assertThat(admitted(e.schedule(3, 0))).as("while a is not ready").isEmpty();
        assertThat(admitted(e.schedule(4, 1))).containsExactly(key("b"));
    }

    @Test
    void orderIsPriorityThenAge() {
        Engine e = engine(cq("q", null, "cpu", "f", 1));
        e.submit(wl("old-low", "lq", 0, 0, "cpu", 1, 1));
        e.submit(wl("new-high", "lq", 10, 5, "cpu", 1, 1));
        e.submit(wl("old-high", "lq", 10, 1, "cpu", 1, 1));
        assertThat(admitted(settle(e, 0))).containsExactly(key("old-high"));
        e.finish(key("old-high"));
        assertThat(admitted(settle(e, 1))).containsExactly(key("new-high"));
        e.finish(key("new-high"));
        assertThat(admitted(settle(e, 2))).containsExactly(key("old-low"));
    }

    @Test
    void parkedWorkloadsWakeWhenQuotaIsFreed() {
        Engine e = engine(cq("q", null, "cpu", "f", 2));
        e.submit(wl("a", "lq", 0, 0, "cpu", 1, 2));
        e.submit(wl("b", "lq", 0, 1, "cpu", 1, 2));
        settle(e, 0);
        assertThat(e.workload(key("b")).orElseThrow().phase()).isEqualTo(WorkloadPhase.INADMISSIBLE);
        // Nothing changed: the parked workload is not tried again.
        assertThat(e.schedule(1).pending()).isEmpty();
        e.finish(key("a"));
        assertThat(admitted(settle(e, 2))).containsExactly(key("b"));
    }

    @Test
    void evictedWorkloadIsRequeuedByEvictionTime() {
        Engine e = engine(withPreemption(cq("q", null, "cpu", "f", 2),
                new PreemptionSpec(null, null, null, WithinClusterQueue.LowerPriority)));
        e.submit(wl("victim", "lq", 0, 0, "cpu", 1, 2));
        settle(e, 0);
        e.submit(wl("waiting", "lq", 0, 50, "cpu", 1, 2));
        e.submit(wl("boss", "lq", 10, 60, "cpu", 1, 2));
        settle(e, 100);
        e.evictionDone(key("victim"), 101);
        assertThat(admitted(settle(e, 102))).containsExactly(key("boss"));
        e.finish(key("boss"));
        // Same priority: "waiting" (created at 50) goes before "victim" (evicted at 100).
        assertThat(admitted(settle(e, 103))).containsExactly(key("waiting"));
    }

    @Test
    void queueTimeIsReportedOnAdmission() {
        Engine e = engine(cq("q", null, "cpu", "f", 2));
        e.submit(wl("a", "lq", 0, 1_000, "cpu", 1, 1));
        CycleResult r = settle(e, 4_000);
        assertThat(r.admissions().get(0).message())
                .isEqualTo("Quota reserved in ClusterQueue q, wait time since queued was 3s");
    }
}
