package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.cq;
import static dev.sluice.engine.Fixtures.key;
import static dev.sluice.engine.Fixtures.lq;
import static dev.sluice.engine.Fixtures.settle;
import static dev.sluice.engine.Fixtures.wl;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Admission checks in the engine: Kueue v0.19.2's pkg/cache/scheduler TestClusterQueueUpdateWithAdmissionCheck (the
 * queue's activity), pkg/scheduler's "with check state" cases (quota reserved, admitted only once every check is
 * Ready), then per-flavor checks and the counts a queue shows.
 */
class AdmissionCheckEngineTest {

    private static final List<AdmissionCheckRule> THREE = List.of(new AdmissionCheckRule("check1"),
            new AdmissionCheckRule("check2"), new AdmissionCheckRule("check3"));

    private static Engine engine(ClusterQueueSpec spec, AdmissionCheckSpec... checks) {
        Engine e = new Engine();
        e.upsertFlavor(Fixtures.flavor("default"));
        for (AdmissionCheckSpec c : checks) {
            e.upsertAdmissionCheck(c);
        }
        e.upsertClusterQueue(spec);
        e.upsertLocalQueue(lq("default", "lq", spec.name()));
        return e;
    }

    private static ClusterQueueSpec cqWithChecks() {
        return cq("cq", null, "cpu", "default", 10).withAdmissionChecks(THREE);
    }

    private static AdmissionCheckSpec check(String name, String controller, boolean active) {
        return new AdmissionCheckSpec(name, controller, active);
    }

    private static void assertStatus(Engine e, boolean active, String reason, String message) {
        ClusterQueueStatus st = e.clusterQueueStatus("cq");
        assertThat(st.active()).isEqualTo(active);
        assertThat(st.reason()).isEqualTo(reason);
        assertThat(st.message()).isEqualTo(message);
    }

    // ---- TestClusterQueueUpdateWithAdmissionCheck ----

    @Test
    void pendingClusterQueueWithAnAcStrategyUpdatedValidAcList() {
        Engine e = engine(cqWithChecks(), check("check1", "controller1", true), check("check2", "controller2", true));
        assertThat(e.clusterQueueStatus("cq").active()).isFalse();
        e.upsertAdmissionCheck(check("check3", "controller3", true));
        assertStatus(e, true, "Ready", "Can admit new workloads");
    }

    @Test
    void activeClusterQueueWithAnAcStrategyUpdatedWithNotFoundAc() {
        Engine e = engine(cqWithChecks(), check("check1", "controller1", true), check("check2", "controller2", true),
                check("check3", "controller3", true));
        assertStatus(e, true, "Ready", "Can admit new workloads");
        e.deleteAdmissionCheck("check3");
        assertStatus(e, false, "AdmissionCheckNotFound",
                "Can't admit new workloads: references missing AdmissionCheck(s): check3.");
    }

    @Test
    void activeClusterQueueWithAnAcStrategyUpdatedWithInactiveAc() {
        Engine e = engine(cqWithChecks(), check("check1", "controller1", true), check("check2", "controller2", true),
                check("check3", "controller3", true));
        e.upsertAdmissionCheck(check("check3", "controller3", false));
        assertStatus(e, false, "AdmissionCheckInactive",
                "Can't admit new workloads: references inactive AdmissionCheck(s): check3.");
    }

    @Test
    void activeClusterQueueWithAnMultiKueueAcStrategyUpdatedWithDuplicateSingleInstanceAcController() {
        Engine e = engine(cqWithChecks(), check("check1", AdmissionCheckSpec.MULTIKUEUE, true),
                check("check2", "controller2", true), check("check3", AdmissionCheckSpec.MULTIKUEUE, true));
        assertStatus(e, false, "MultipleMultiKueueAdmissionChecks", "Can't admit new workloads: Cannot use multiple "
                + "MultiKueue AdmissionChecks on the same ClusterQueue, found: check1,check3.");
    }

    @Test
    void activeClusterQueueWithBothMultiKueueAndProvisioningRequestAcs() {
        Engine e = engine(cqWithChecks(), check("check1", AdmissionCheckSpec.MULTIKUEUE, true),
                check("check2", "controller2", true), check("check3", AdmissionCheckSpec.PROVISIONING_REQUEST, true));
        assertStatus(e, false, "MultiKueueWithProvisioningRequest", "Can't admit new workloads: Cannot use both "
                + "MultiKueue and ProvisioningRequest AdmissionChecks together, found: check1, check3.");
    }

    /** Several reasons: the first is the reason, the message names them all (Kueue's inactiveReason). */
    @Test
    void missingAndInactiveChecksAreBothNamed() {
        Engine e = engine(cqWithChecks(), check("check1", "controller1", false));
        assertStatus(e, false, "AdmissionCheckNotFound", "Can't admit new workloads: references missing "
                + "AdmissionCheck(s): check2,check3, references inactive AdmissionCheck(s): check1.");
    }

    @Test
    void inactiveClusterQueueAdmitsNothingUntilItsChecksAreActive() {
        Engine e = engine(cqWithChecks(), check("check1", "c", true), check("check2", "c", true),
                check("check3", "c", false));
        e.submit(wl("a", "lq", 0, 1, "cpu", 1, 1));
        assertThat(settle(e, 10).admissions()).isEmpty();
        e.upsertAdmissionCheck(check("check3", "c", true));
        assertThat(Fixtures.admitted(settle(e, 20))).containsExactly(key("a"));
    }

    // ---- pkg/scheduler: "workload fits in single clusterQueue, with check state ..." ----

    @Test
    void workloadFitsInSingleClusterQueueWithCheckStatePending() {
        Engine e = engine(cq("cq", null, "cpu", "default", 10).withAdmissionChecks(List.of(new AdmissionCheckRule("check"))),
                check("check", "ctrl", true));
        e.submit(wl("a", "lq", 0, 1, "cpu", 2, 1));
        CycleResult r = settle(e, 10);
        assertThat(r.admissions()).singleElement().satisfies(a -> assertThat(a.admissionChecks()).containsExactly("check"));
        WorkloadState st = e.workload(key("a")).orElseThrow();
        assertThat(st.phase()).isEqualTo(WorkloadPhase.ADMITTED); // the quota is reserved
        assertThat(st.admitted()).isFalse();
        assertThat(st.waitingForChecks()).isTrue();
        assertThat(st.admissionChecks()).containsExactly(Map.entry("check", CheckState.Pending));
        ClusterQueueStatus cq = e.clusterQueueStatus("cq");
        assertThat(cq.reservingWorkloads()).isEqualTo(1);
        assertThat(cq.admittedWorkloads()).isZero();
        assertThat(cq.flavorsReservation()).containsEntry(new FlavorResource("default", "cpu"), 2000L);
        assertThat(cq.flavorsUsage().getOrDefault(new FlavorResource("default", "cpu"), 0L)).isZero();
        assertThat(e.localQueueStatus("default", "lq").admittedWorkloads()).isZero();
    }

    @Test
    void workloadFitsInSingleClusterQueueWithCheckStateReady() {
        Engine e = engine(cq("cq", null, "cpu", "default", 10).withAdmissionChecks(List.of(new AdmissionCheckRule("check"))),
                check("check", "ctrl", true));
        e.submit(wl("a", "lq", 0, 1, "cpu", 2, 1));
        settle(e, 10);
        e.setAdmissionCheckStates(key("a"), Map.of("check", CheckState.Ready));
        WorkloadState st = e.workload(key("a")).orElseThrow();
        assertThat(st.admitted()).isTrue();
        ClusterQueueStatus cq = e.clusterQueueStatus("cq");
        assertThat(cq.admittedWorkloads()).isEqualTo(1);
        assertThat(cq.flavorsUsage()).containsEntry(new FlavorResource("default", "cpu"), 2000L);
    }

    /** A reserved workload counts against quota while it waits for its checks: the next one does not fit. */
    @Test
    void reservationWaitingForChecksHoldsTheQuota() {
        Engine e = engine(cq("cq", null, "cpu", "default", 2).withAdmissionChecks(List.of(new AdmissionCheckRule("check"))),
                check("check", "ctrl", true));
        e.submit(wl("a", "lq", 0, 1, "cpu", 2, 1));
        e.submit(wl("b", "lq", 0, 2, "cpu", 2, 1));
        assertThat(Fixtures.admitted(settle(e, 10))).containsExactly(key("a"));
        e.evict(key("a"), EvictionReason.AdmissionCheck, "Evicted due to AdmissionCheck in Retry state: \"check\"", 20);
        e.evictionDone(key("a"), 20);
        assertThat(Fixtures.admitted(settle(e, 30))).containsExactly(key("b"));
    }

    // ---- per flavor (admissionChecksStrategy.admissionChecks[].onFlavors) ----

    @Test
    void checksPerFlavorApplyOnlyToWorkloadsAssignedThoseFlavors() {
        Engine e = new Engine();
        e.upsertFlavor(Fixtures.flavor("on-demand"));
        e.upsertFlavor(Fixtures.flavor("spot"));
        e.upsertAdmissionCheck(check("check1", "ctrl", true));
        e.upsertAdmissionCheck(check("check3", "ctrl", true));
        e.upsertClusterQueue(cq("cq", null, "cpu", "on-demand", 1, "spot", 5).withAdmissionChecks(List.of(
                new AdmissionCheckRule("check1"), new AdmissionCheckRule("check3", Set.of("spot")))));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        e.submit(wl("small", "lq", 0, 1, "cpu", 1, 1));
        e.submit(wl("big", "lq", 0, 2, "cpu", 3, 1));
        // waiting, each lists only the check for every flavor
        assertThat(e.admissionChecksFor(key("small"))).containsExactly("check1");
        CycleResult r = settle(e, 10);
        Map<WorkloadKey, List<String>> checks = new java.util.HashMap<>();
        r.admissions().forEach(a -> checks.put(a.workload(), a.admissionChecks()));
        assertThat(checks).containsEntry(key("small"), List.of("check1")).containsEntry(key("big"),
                List.of("check1", "check3"));
        assertThat(e.admissionChecksFor(key("big"))).containsExactly("check1", "check3");
    }

    /** A check removed from the queue is no longer needed by the workloads holding quota there. */
    @Test
    void checkRemovedFromTheClusterQueueIsNoLongerNeeded() {
        Engine e = engine(cqWithChecks(), check("check1", "c", true), check("check2", "c", true),
                check("check3", "c", true));
        e.submit(wl("a", "lq", 0, 1, "cpu", 1, 1));
        settle(e, 10);
        assertThat(e.admissionChecksFor(key("a"))).containsExactly("check1", "check2", "check3");
        e.upsertClusterQueue(cqWithChecks().withAdmissionChecks(List.of(new AdmissionCheckRule("check2"))));
        assertThat(e.admissionChecksFor(key("a"))).containsExactly("check2");
    }

    /** At restart the recorded states count: a reservation with every check Ready is admitted, else it waits. */
    @Test
    void restoredReservationKeepsItsCheckStates() {
        Engine e = engine(cqWithChecks(), check("check1", "c", true), check("check2", "c", true),
                check("check3", "c", true));
        e.submit(wl("a", "lq", 0, 1, "cpu", 1, 1));
        Assignment at = settle(e, 10).admissions().get(0).assignment();
        Engine restarted = engine(cqWithChecks(), check("check1", "c", true), check("check2", "c", true),
                check("check3", "c", true));
        restarted.restoreAdmitted(wl("a", "lq", 0, 1, "cpu", 1, 1), at, 10,
                Map.of("check1", CheckState.Ready, "check2", CheckState.Ready, "check3", CheckState.Pending));
        assertThat(restarted.workload(key("a")).orElseThrow().waitingForChecks()).isTrue();
        restarted.setAdmissionCheckStates(key("a"),
                Map.of("check1", CheckState.Ready, "check2", CheckState.Ready, "check3", CheckState.Ready));
        assertThat(restarted.workload(key("a")).orElseThrow().admitted()).isTrue();
    }
}
