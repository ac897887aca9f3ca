package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueObjectsTest {
    private static final FlavorResource CPU_F = new FlavorResource("f", "cpu");

    private static Engine withFlavor() {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        return e;
    }

    @Test
    void missingLocalQueueAndClusterQueueAreNamedAndHealedWhenCreated() {
        Engine e = withFlavor();
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 1));
        CycleResult r = settle(e, 0);
        assertThat(r.pending()).containsExactly(
                new PendingStatus(key("w"), PendingReason.Inadmissible, "LocalQueue lq doesn't exist"));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        assertThat(lastMessage(settle(e, 1), key("w"))).isEqualTo("ClusterQueue cq doesn't exist");
        assertThat(e.localQueueStatus("default", "lq").reason()).isEqualTo("ClusterQueueDoesNotExist");
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 1));
        assertThat(admitted(settle(e, 2))).containsExactly(key("w"));
        assertThat(e.localQueueStatus("default", "lq").admittedWorkloads()).isEqualTo(1);
        assertThat(e.localQueueStatus("default", "lq").flavorUsage()).containsEntry(CPU_F, units(1));
    }

    @Test
    void namespaceSelectorDecidesWhoMayUseTheQueue() {
        Engine e = withFlavor();
        LabelSelector team = new LabelSelector(Map.of("team", "ml"), List.of());
        e.upsertClusterQueue(withSelector(cq("cq", null, "cpu", "f", 4), team));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.upsertNamespace("default", Map.of("team", "web"));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 1));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).isEmpty();
        assertThat(r.pending()).contains(new PendingStatus(key("w"), PendingReason.Inadmissible,
                "Workload namespace doesn't match ClusterQueue selector"));
        e.upsertNamespace("default", Map.of("team", "ml"));
        assertThat(admitted(settle(e, 1))).containsExactly(key("w"));
    }

    @Test
    void nullNamespaceSelectorSelectsNothing() {
        Engine e = withFlavor();
        e.upsertClusterQueue(withSelector(cq("cq", null, "cpu", "f", 4), null));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 1));
        assertThat(settle(e, 0).admissions()).isEmpty();
    }

    @Test
    void stopPoliciesHoldAndDrain() {
        Engine e = withFlavor();
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("running", "lq", 0, 0, "cpu", 1, 2));
        settle(e, 0);
        e.submit(wl("waiting", "lq", 0, 1, "cpu", 1, 1));
        e.upsertClusterQueue(withStop(cq("cq", null, "cpu", "f", 4), StopPolicy.Hold));
        CycleResult held = settle(e, 1);
        assertThat(held.admissions()).isEmpty();
        assertThat(held.evictions()).isEmpty();
        assertThat(lastMessage(held, key("waiting"))).isEqualTo("ClusterQueue cq is inactive");
        assertThat(e.clusterQueueStatus("cq").reason()).isEqualTo("Stopped");
        // the gauges' walk counts it as the views do: waiting in its (held) queue, inadmissible, Suspended
        List<String> walked = new java.util.ArrayList<>();
        e.forEachWaiting((cq, k, queueName, active, reason, inadmissible) ->
                walked.add(cq + " " + k.name() + " " + queueName + " " + reason + " " + inadmissible));
        assertThat(walked).containsExactly("cq waiting lq Suspended true");
        assertThat(e.workload(key("waiting")).orElseThrow().phase()).isEqualTo(WorkloadPhase.INADMISSIBLE);

        e.upsertClusterQueue(withStop(cq("cq", null, "cpu", "f", 4), StopPolicy.HoldAndDrain));
        CycleResult drained = settle(e, 2);
        assertThat(drained.evictions()).containsExactly(new Eviction(key("running"),
                EvictionReason.ClusterQueueStopped, null, null, "The ClusterQueue is stopped"));
        e.evictionDone(key("running"), 3);
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        assertThat(admitted(settle(e, 4))).containsExactlyInAnyOrder(key("running"), key("waiting"));
    }

    @Test
    void localQueueHoldAndDrainEvictsItsWorkloads() {
        Engine e = withFlavor();
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("running", "lq", 0, 0, "cpu", 1, 2));
        settle(e, 0);
        e.upsertLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.HoldAndDrain));
        CycleResult r = settle(e, 1);
        assertThat(r.evictions()).extracting(Eviction::reason).containsExactly(EvictionReason.LocalQueueStopped);
        e.evictionDone(key("running"), 2);
        assertThat(lastMessage(settle(e, 3), key("running"))).isEqualTo("LocalQueue lq is inactive");
        assertThat(e.localQueueStatus("default", "lq").active()).isFalse();
    }

    @Test
    void deactivatingAnAdmittedWorkloadEvictsIt() {
        Engine e = withFlavor();
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        WorkloadSpec w = wl("w", "lq", 0, 0, "cpu", 1, 2);
        e.submit(w);
        settle(e, 0);
        e.submit(new WorkloadSpec(w.key(), w.uid(), w.queueName(), w.priority(), w.creationTimeMillis(),
                w.podSets(), false));
        CycleResult r = settle(e, 1);
        assertThat(r.evictions()).extracting(Eviction::reason).containsExactly(EvictionReason.InactiveWorkload);
        e.evictionDone(key("w"), 2);
        assertThat(e.clusterQueueStatus("cq").flavorsUsage()).isEmpty();
        assertThat(settle(e, 3).admissions()).isEmpty();
        assertThat(e.workload(key("w")).orElseThrow().message()).isEqualTo("The workload is deactivated");
    }

    @Test
    void restoreAdmittedCountsUsageEvenBeyondQuotaAndAdmitsNothingMore() {
        Engine e = withFlavor();
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        Assignment big = new Assignment("cq", List.of(new PodSetAssignment("main", Map.of("cpu", "f"),
                Map.of("cpu", units(5)), 1)));
        e.restoreAdmitted(wl("old", "lq", 0, 0, "cpu", 1, 5), big, 0);
        e.restoreAdmitted(wl("old", "lq", 0, 0, "cpu", 1, 5), big, 0);
        assertThat(e.clusterQueueStatus("cq").flavorsReservation()).containsEntry(CPU_F, units(5));
        e.submit(wl("new", "lq", 0, 1, "cpu", 1, 1));
        assertThat(settle(e, 1).admissions()).isEmpty();
        e.finish(key("old"));
        assertThat(admitted(settle(e, 2))).containsExactly(key("new"));
        assertThat(e.clusterQueueStatus("cq").flavorsReservation()).containsEntry(CPU_F, units(1));
    }

    @Test
    void restoreBeforeTheClusterQueueIsKnownStillCounts() {
        Engine e = withFlavor();
        Assignment a = new Assignment("cq", List.of(new PodSetAssignment("main", Map.of("cpu", "f"),
                Map.of("cpu", units(3)), 1)));
        e.restoreAdmitted(wl("old", "lq", 0, 0, "cpu", 1, 3), a, 0);
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("two", "lq", 0, 1, "cpu", 1, 2));
        e.submit(wl("one", "lq", 0, 2, "cpu", 1, 1));
        assertThat(admitted(settle(e, 1))).containsExactly(key("one"));
    }

    @Test
    void deletingAClusterQueueKeepsAdmittedUsageUntilReleased() {
        Engine e = withFlavor();
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("a", "lq", 0, 0, "cpu", 1, 4));
        settle(e, 0);
        e.submit(wl("b", "lq", 0, 1, "cpu", 1, 4));
        settle(e, 1);
        e.deleteClusterQueue("cq");
        assertThat(e.clusterQueueNames()).isEmpty();
        assertThat(lastMessage(settle(e, 2), key("b"))).isEqualTo("ClusterQueue cq doesn't exist");
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 4));
        assertThat(settle(e, 3).admissions()).isEmpty();
        e.finish(key("a"));
        assertThat(admitted(settle(e, 4))).containsExactly(key("b"));
    }
}
