package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.cq;
import static dev.sluice.engine.Fixtures.key;
import static dev.sluice.engine.Fixtures.lq;
import static dev.sluice.engine.Fixtures.wl;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19's granular QuotaReserved=False reasons (KEP 10852) beside the engine's coarse reason and message, one
 * case per reason; the messages stay Kueue's (and Sluice's) texts.
 */
class UnadmittedReasonTest {

    private static Engine engine(ClusterQueueSpec... cqs) {
        Engine e = new Engine();
        e.upsertFlavor(Fixtures.flavor("default"));
        for (ClusterQueueSpec c : cqs) {
            e.upsertClusterQueue(c);
        }
        e.upsertLocalQueue(lq("default", "lq", cqs[0].name()));
        return e;
    }

    private static PendingStatus last(CycleResult r, String name) {
        PendingStatus s = null;
        for (PendingStatus p : r.pending()) {
            if (p.workload().equals(key(name))) {
                s = p;
            }
        }
        return s;
    }

    private static UnadmittedReason shown(Engine e, String name) {
        return e.workload(key(name)).orElseThrow().unadmittedReason();
    }

    @Test
    void aQueuedWorkloadIsPendingEvaluation() {
        Engine e = engine(cq("cq", null, "cpu", "default", 1));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 1));
        assertThat(shown(e, "w")).isEqualTo(UnadmittedReason.PendingEvaluation);
        PendingStatus s = last(e.schedule(0), "w");
        assertThat(s).as("admitted: no pending status").isNull();
        assertThat(shown(e, "w")).as("admitted: no reason").isNull();
    }

    @Test
    void notEnoughUnusedQuotaIsWaitingForQuota() {
        Engine e = engine(cq("cq", null, "cpu", "default", 1));
        e.submit(wl("a", "lq", 0, 0, "cpu", 1, 1));
        e.submit(wl("b", "lq", 0, 1, "cpu", 1, 1));
        CycleResult r = Fixtures.settle(e, 0);
        PendingStatus s = last(r, "b");
        assertThat(s.reason()).isEqualTo(PendingReason.Pending);
        assertThat(s.message()).isEqualTo("couldn't assign flavors to pod set main: insufficient unused quota for cpu"
                + " in flavor default, 1 more needed");
        assertThat(s.unadmittedReason()).isEqualTo(UnadmittedReason.WaitingForQuota);
        assertThat(shown(e, "b")).isEqualTo(UnadmittedReason.WaitingForQuota);
    }

    @Test
    void aRequestAboveMaximumCapacityExceedsMaxQuota() {
        Engine e = engine(cq("cq", null, "cpu", "default", 2));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 5));
        PendingStatus s = last(Fixtures.settle(e, 0), "w");
        assertThat(s.message()).contains("request > maximum capacity (5 > 2)");
        assertThat(s.unadmittedReason()).isEqualTo(UnadmittedReason.ExceedsMaxQuota);
    }

    @Test
    void noFlavorMatchingIsNoMatchingFlavor() {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")),
                List.of()));
        e.upsertClusterQueue(cq("cq", null, "cpu", "spot", 4));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 1));
        PendingStatus s = last(Fixtures.settle(e, 0), "w");
        assertThat(s.message()).contains("untolerated taint");
        assertThat(s.unadmittedReason()).isEqualTo(UnadmittedReason.NoMatchingFlavor);
    }

    @Test
    void aResourceTheQueueDoesNotCoverIsNoMatchingFlavor() {
        Engine e = engine(cq("cq", null, "cpu", "default", 4));
        e.submit(wl("w", "lq", 0, 0, "nvidia.com/gpu", 1, 1));
        PendingStatus s = last(Fixtures.settle(e, 0), "w");
        assertThat(s.message()).contains("resource nvidia.com/gpu unavailable in ClusterQueue");
        assertThat(s.unadmittedReason()).isEqualTo(UnadmittedReason.NoMatchingFlavor);
    }

    @Test
    void theMildestFailureAmongAGroupsFlavorsIsTheReason() {
        // spot does not match (NoMatchingFlavor), default is too small (ExceedsMaxQuota): alternatives, so the
        // milder one is the reason, as Kueue's resolveNoFitReason takes the minimum severity within a group.
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")),
                List.of()));
        e.upsertFlavor(Fixtures.flavor("default"));
        e.upsertClusterQueue(cq("cq", null, "cpu", "spot", 8, "default", 2));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 5));
        assertThat(last(Fixtures.settle(e, 0), "w").unadmittedReason()).isEqualTo(UnadmittedReason.ExceedsMaxQuota);
    }

    @Test
    void aPreemptorWaitsForPreemptedWorkloads() {
        ClusterQueueSpec c = Fixtures.withPreemption(cq("cq", null, "cpu", "default", 1),
                new PreemptionSpec(ReclaimWithinCohort.Never, BorrowWithinCohortPolicy.Never, null,
                        WithinClusterQueue.LowerPriority));
        Engine e = engine(c);
        e.submit(wl("low", "lq", 0, 0, "cpu", 1, 1));
        Fixtures.settle(e, 0);
        e.submit(wl("high", "lq", 5, 1, "cpu", 1, 1));
        CycleResult r = e.schedule(1);
        assertThat(r.evictions()).extracting(Eviction::workload).containsExactly(key("low"));
        PendingStatus s = last(r, "high");
        assertThat(s.message()).endsWith("Pending the preemption of 1 workload(s)");
        assertThat(s.unadmittedReason()).isEqualTo(UnadmittedReason.WaitingForPreemptedWorkloads);
    }

    @Test
    void aMissingLocalQueueOrUnselectedNamespaceIsMisconfigured() {
        Engine e = engine(cq("cq", null, "cpu", "default", 1));
        e.submit(wl("w", "nope", 0, 0, "cpu", 1, 1));
        PendingStatus s = last(e.schedule(0), "w");
        assertThat(s).isEqualTo(new PendingStatus(key("w"), PendingReason.Inadmissible,
                "LocalQueue nope doesn't exist", UnadmittedReason.Misconfigured));

        Engine selective = engine(Fixtures.withSelector(cq("cq", null, "cpu", "default", 1),
                new LabelSelector(Map.of("team", "ml"), List.of())));
        selective.upsertNamespace("default", Map.of("team", "web"));
        selective.submit(wl("v", "lq", 0, 0, "cpu", 1, 1));
        assertThat(last(Fixtures.settle(selective, 0), "v").unadmittedReason())
                .isEqualTo(UnadmittedReason.Misconfigured);
    }

    @Test
    void aStoppedLocalQueueOrInactiveClusterQueueIsSuspended() {
        Engine e = engine(cq("cq", null, "cpu", "default", 1));
        e.upsertLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.Hold));
        e.submit(wl("w", "lq", 0, 0, "cpu", 1, 1));
        assertThat(last(e.schedule(0), "w").unadmittedReason()).isEqualTo(UnadmittedReason.Suspended);

        Engine missingFlavor = new Engine();
        missingFlavor.upsertClusterQueue(cq("cq", null, "cpu", "absent", 1));
        missingFlavor.upsertLocalQueue(lq("default", "lq", "cq"));
        missingFlavor.submit(wl("v", "lq", 0, 0, "cpu", 1, 1));
        PendingStatus s = last(missingFlavor.schedule(0), "v");
        assertThat(s.message()).isEqualTo("ClusterQueue cq is inactive");
        assertThat(s.unadmittedReason()).isEqualTo(UnadmittedReason.Suspended);
        assertThat(shown(missingFlavor, "v")).isEqualTo(UnadmittedReason.Suspended);
    }

    @Test
    void aStatusMadeWithoutAGranularReasonDerivesIt() {
        assertThat(new PendingStatus(key("w"), PendingReason.Inadmissible, "m").unadmittedReason())
                .isEqualTo(UnadmittedReason.Misconfigured);
        assertThat(new PendingStatus(key("w"), PendingReason.Pending, "m").unadmittedReason())
                .isEqualTo(UnadmittedReason.PendingEvaluation);
    }
}
