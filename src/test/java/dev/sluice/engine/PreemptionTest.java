package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreemptionTest {

    private static Engine engine(ClusterQueueSpec... cqs) {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        e.upsertFlavor(flavor("vlp-24", VLP_LABELS));
        for (ClusterQueueSpec cq : cqs) {
            e.upsertClusterQueue(cq);
            e.upsertLocalQueue(lq("default", "lq-" + cq.name(), cq.name()));
        }
        return e;
    }

    @Test
    void seedLowPriorityIsEvictedAndThePreemptorWaitsForEvictionDone() {
        ClusterQueueSpec spec = withPreemption(cq("cluster-queue", null, TPU, "vlp-24", 24),
                new PreemptionSpec(ReclaimWithinCohort.Any, null, null, WithinClusterQueue.LowerPriority));
        Engine e = engine(spec);
        e.submit(wl("low", "lq-cluster-queue", 100, 0, TPU, 4, 4));
        assertThat(admitted(settle(e, 1))).containsExactly(key("low"));

        e.submit(wl("high", "lq-cluster-queue", 1000, 5, TPU, 4, 4));
        CycleResult r = settle(e, 10);
        assertThat(r.admissions()).isEmpty();
        assertThat(r.evictions()).hasSize(1);
        Eviction ev = r.evictions().get(0);
        assertThat(ev.workload()).isEqualTo(key("low"));
        assertThat(ev.reason()).isEqualTo(EvictionReason.Preempted);
        assertThat(ev.preemptionReason()).isEqualTo(PreemptionReason.InClusterQueue);
        assertThat(ev.preemptor()).isEqualTo(key("high"));
        assertThat(ev.message()).isEqualTo("Preempted to accommodate a workload (UID: uid-high, JobUID: UNKNOWN)"
                + " due to prioritization in the ClusterQueue; preemptor path: /cluster-queue; preemptee path:"
                + " /cluster-queue");
        assertThat(lastMessage(r, key("high"))).isEqualTo("couldn't assign flavors to pod set main: insufficient"
                + " unused quota for google.com/tpu in flavor vlp-24, 8 more needed. Pending the preemption of 1"
                + " workload(s)");
        assertThat(e.workload(key("low")).orElseThrow().phase()).isEqualTo(WorkloadPhase.EVICTING);

        // Until the victim is gone, nothing is admitted and the eviction is not repeated.
        CycleResult again = settle(e, 11);
        assertThat(again.admissions()).isEmpty();
        assertThat(again.evictions()).isEmpty();

        e.evictionDone(key("low"), 12);
        CycleResult after = settle(e, 13);
        assertThat(admitted(after)).containsExactly(key("high"));
        assertThat(e.workload(key("low")).orElseThrow().phase()).isNotEqualTo(WorkloadPhase.ADMITTED);
        assertThat(lastMessage(after, key("low"))).contains("8 more needed");
    }

    @Test
    void withinClusterQueuePolicies() {
        // Never: no eviction at all.
        Engine never = engine(cq("q", null, "cpu", "f", 4));
        never.submit(wl("a", "lq-q", 0, 0, "cpu", 4, 1));
        settle(never, 0);
        never.submit(wl("b", "lq-q", 10, 1, "cpu", 4, 1));
        assertThat(settle(never, 1).evictions()).isEmpty();

        // LowerPriority: equal priority is not preempted.
        Engine lower = engine(withPreemption(cq("q", null, "cpu", "f", 4),
                new PreemptionSpec(null, null, null, WithinClusterQueue.LowerPriority)));
        lower.submit(wl("a", "lq-q", 5, 0, "cpu", 4, 1));
        settle(lower, 0);
        lower.submit(wl("b", "lq-q", 5, -10, "cpu", 4, 1));
        assertThat(settle(lower, 1).evictions()).isEmpty();

        // LowerOrNewerEqualPriority: an older workload of equal priority preempts a newer one.
        Engine newer = engine(withPreemption(cq("q", null, "cpu", "f", 4),
                new PreemptionSpec(null, null, null, WithinClusterQueue.LowerOrNewerEqualPriority)));
        newer.submit(wl("a", "lq-q", 5, 100, "cpu", 4, 1));
        settle(newer, 200);
        newer.submit(wl("older", "lq-q", 5, 50, "cpu", 4, 1));
        CycleResult r = settle(newer, 201);
        assertThat(r.evictions()).extracting(Eviction::workload).containsExactly(key("a"));
        newer.submit(wl("newest", "lq-q", 5, 300, "cpu", 4, 1));
        assertThat(settle(newer, 202).evictions()).isEmpty();
    }

    @Test
    void victimSetIsMinimalAndPrefersLowerPriorityAndRecentAdmissions() {
        Engine e = engine(withPreemption(cq("q", null, "cpu", "f", 10),
                new PreemptionSpec(null, null, null, WithinClusterQueue.LowerPriority)));
        e.submit(wl("p1-old", "lq-q", 1, 0, "cpu", 1, 3));
        settle(e, 1);
        e.submit(wl("p1-new", "lq-q", 1, 1, "cpu", 1, 3));
        settle(e, 2);
        e.submit(wl("p2", "lq-q", 2, 2, "cpu", 1, 4));
        settle(e, 3);
        // Needs 3 more: one priority-1 workload is enough; the most recently admitted goes.
        e.submit(wl("big", "lq-q", 10, 3, "cpu", 1, 3));
        CycleResult r = settle(e, 4);
        assertThat(r.evictions()).extracting(Eviction::workload).containsExactly(key("p1-new"));
    }

    @Test
    void reclaimWithinCohortEvictsBorrowersOnly() {
        ClusterQueueSpec a = withPreemption(cq("a", "co", "cpu", "f", 4),
                new PreemptionSpec(ReclaimWithinCohort.Any, null, null, WithinClusterQueue.Never));
        ClusterQueueSpec b = cq("b", "co", "cpu", "f", 4);
        Engine e = engine(a, b);
        e.submit(wl("b1", "lq-b", 100, 0, "cpu", 1, 4));
        assertThat(admitted(settle(e, 0))).containsExactly(key("b1"));
        e.submit(wl("b2", "lq-b", 100, 1, "cpu", 1, 4));
        assertThat(admitted(settle(e, 1))).containsExactly(key("b2"));
        // b borrows 4 from a; a claims its nominal back, even from a higher priority (policy Any).
        e.submit(wl("a1", "lq-a", 0, 2, "cpu", 1, 4));
        CycleResult r = settle(e, 2);
        assertThat(r.evictions()).hasSize(1);
        assertThat(r.evictions().get(0).workload()).isEqualTo(key("b2"));
        assertThat(r.evictions().get(0).preemptionReason()).isEqualTo(PreemptionReason.InCohortReclamation);
        assertThat(r.evictions().get(0).message()).endsWith("due to reclamation within the cohort;"
                + " preemptor path: /co/a; preemptee path: /co/b");
        e.evictionDone(key("b2"), 3);
        assertThat(admitted(settle(e, 4))).containsExactly(key("a1"));
        // b is back within nominal: nothing more to reclaim.
        e.submit(wl("a2", "lq-a", 1000, 5, "cpu", 1, 1));
        assertThat(settle(e, 5).evictions()).isEmpty();
    }

    @Test
    void reclaimLowerPriorityRespectsPriority() {
        ClusterQueueSpec a = withPreemption(cq("a", "co", "cpu", "f", 4),
                new PreemptionSpec(ReclaimWithinCohort.LowerPriority, null, null, WithinClusterQueue.Never));
        Engine e = engine(a, cq("b", "co", "cpu", "f", 4));
        e.submit(wl("b1", "lq-b", 100, 0, "cpu", 1, 8));
        settle(e, 0);
        e.submit(wl("a-low", "lq-a", 50, 1, "cpu", 1, 4));
        assertThat(settle(e, 1).evictions()).isEmpty();
        e.submit(wl("a-high", "lq-a", 200, 2, "cpu", 1, 4));
        assertThat(settle(e, 2).evictions()).extracting(Eviction::workload).containsExactly(key("b1"));
    }

    @Test
    void borrowWithinCohortPreemptsBelowThresholdWhileBorrowing() {
        PreemptionSpec policy = new PreemptionSpec(ReclaimWithinCohort.Any, BorrowWithinCohortPolicy.LowerPriority,
                50, WithinClusterQueue.Never);
        for (int victimPriority : new int[] {10, 60}) {
            Engine e = engine(withPreemption(cq("a", "co", "cpu", "f", 2), policy), cq("b", "co", "cpu", "f", 2),
                    cq("c", "co", "cpu", "f", 4));
            e.submit(wl("b1", "lq-b", victimPriority, 0, "cpu", 1, 2));
            e.submit(wl("b2", "lq-b", victimPriority, 1, "cpu", 1, 2));
            e.submit(wl("b3", "lq-b", victimPriority, 2, "cpu", 1, 2));
            assertThat(admitted(settle(e, 0))).hasSize(3);
            // a needs 4, 2 above its nominal: it may borrow only by preempting below priority 51.
            e.submit(wl("a1", "lq-a", 100, 3, "cpu", 1, 4));
            CycleResult r = settle(e, 1);
            if (victimPriority == 10) {
                assertThat(r.evictions()).hasSize(1);
                assertThat(r.evictions().get(0).preemptionReason())
                        .isEqualTo(PreemptionReason.InCohortReclaimWhileBorrowing);
                assertThat(r.evictions().get(0).message())
                        .endsWith("due to reclamation within the cohort while borrowing;"
                                + " preemptor path: /co/a; preemptee path: /co/b");
            } else {
                assertThat(r.evictions()).isEmpty();
            }
        }
    }

    @Test
    void noPreemptionPossibleLeavesAnActionableMessage() {
        Engine e = engine(withPreemption(cq("q", null, "cpu", "f", 4),
                new PreemptionSpec(null, null, null, WithinClusterQueue.LowerPriority)));
        e.submit(wl("a", "lq-q", 10, 0, "cpu", 1, 4));
        settle(e, 0);
        e.submit(wl("b", "lq-q", 5, 1, "cpu", 1, 2));
        CycleResult r = settle(e, 1);
        assertThat(r.evictions()).isEmpty();
        assertThat(lastMessage(r, key("b"))).isEqualTo(
                "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor f, 2 more needed");
    }

    @Test
    void partialAdmissionMayPreempt() {
        // 5 gpus; a low-priority workload holds 4. The high one wants 8 workers (at least 2): all 8 exceed the
        // queue, but 5 fit once the low one is gone, so (as Kueue's pod set reducer) it preempts for 5.
        ClusterQueueSpec spec = withPreemption(cq("q", null, "gpu", "f", 5),
                new PreemptionSpec(ReclaimWithinCohort.Never, null, null, WithinClusterQueue.LowerPriority));
        Engine e = engine(spec);
        e.submit(wl("low", "lq-q", 0, 0, "gpu", 4, 1));
        assertThat(admitted(settle(e, 1))).containsExactly(key("low"));
        e.submit(withPodSets(wl("high", "lq-q", 10, 2, "gpu", 1, 1), List.of(
                new PodSetSpec("workers", 8, 2, Map.of("gpu", units(1)), Map.of(), List.of(), List.of()))));

        CycleResult r = settle(e, 3);

        assertThat(r.admissions()).isEmpty();
        assertThat(r.evictions()).extracting(Eviction::workload).containsExactly(key("low"));
        assertThat(r.evictions().get(0).preemptor()).isEqualTo(key("high"));
        e.evictionDone(key("low"), 4);
        CycleResult after = settle(e, 5);
        assertThat(admitted(after)).containsExactly(key("high"));
        assertThat(after.admissions().get(0).assignment().podSets().get(0).count()).isEqualTo(5);
    }

    @Test
    void partialAdmissionPrefersFewerPodsThatFitOverNone() {
        // Nothing may be preempted (the holder has the same priority): the workload shrinks to the free room.
        ClusterQueueSpec spec = withPreemption(cq("q", null, "gpu", "f", 5),
                new PreemptionSpec(ReclaimWithinCohort.Never, null, null, WithinClusterQueue.LowerPriority));
        Engine e = engine(spec);
        e.submit(wl("first", "lq-q", 10, 0, "gpu", 2, 1));
        assertThat(admitted(settle(e, 1))).containsExactly(key("first"));
        e.submit(withPodSets(wl("second", "lq-q", 10, 2, "gpu", 1, 1), List.of(
                new PodSetSpec("workers", 8, 2, Map.of("gpu", units(1)), Map.of(), List.of(), List.of()))));

        CycleResult r = settle(e, 3);

        assertThat(r.evictions()).isEmpty();
        assertThat(admitted(r)).containsExactly(key("second"));
        assertThat(r.admissions().get(0).assignment().podSets().get(0).count()).isEqualTo(3);
    }
}
