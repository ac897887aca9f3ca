package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

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

    private static WorkloadSpec inNamespace(WorkloadSpec w, String namespace) {
        return new WorkloadSpec(new WorkloadKey(namespace, w.key().name()), w.uid(), w.queueName(), w.priority(),
                w.creationTimeMillis(), w.podSets(), w.active());
    }
}
