package dev.sluice.controller.conditions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19.2's pkg/workload/admissionchecks_test.go (TestSyncAdmittedCondition with UnadmittedWorkloadsObservability,
 * the granular reasons Sluice writes; TestGetMaxRetryTime), the workload controller's syncAdmissionCheckConditions and
 * buildAdmissionChecksMessage, and evict's resetChecksOnEviction.
 */
class AdmissionCheckStatesTest {

    private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    private static Workload workload(AdmissionCheckState... checks) {
        Workload wl = new Workload();
        wl.setMetadata(new ObjectMetaBuilder().withName("foo").withNamespace("bar").withGeneration(1L).build());
        wl.setStatus(new WorkloadStatus());
        wl.getStatus().setAdmissionChecks(checks.length == 0 ? null : new ArrayList<>(List.of(checks)));
        return wl;
    }

    private static AdmissionCheckState state(String name, CheckState state) {
        return state(name, state, null, null);
    }

    private static AdmissionCheckState state(String name, CheckState state, Instant since, Integer requeueAfter) {
        AdmissionCheckState c = new AdmissionCheckState();
        c.setName(name);
        c.setState(state);
        c.setMessage("");
        c.setLastTransitionTime(since == null ? null : since.toString());
        c.setRequeueAfterSeconds(requeueAfter);
        return c;
    }

    private static Workload reserved(Workload wl) {
        wl.getStatus().setAdmission(new Admission());
        wl.getStatus().setConditions(Conditions.set(null, WorkloadConditions.QUOTA_RESERVED, true, "QuotaReserved", "",
                1L, NOW));
        return wl;
    }

    private static Condition admitted(Workload wl) {
        return WorkloadConditions.find(wl, WorkloadConditions.ADMITTED);
    }

    // ---- TestSyncAdmittedCondition ----

    @Test
    void reservationNoChecks() {
        Workload wl = reserved(workload());
        assertThat(AdmissionCheckStates.syncAdmitted(wl, NOW)).isTrue();
        assertThat(admitted(wl).getStatus()).isEqualTo("True");
        assertThat(admitted(wl).getReason()).isEqualTo("Admitted");
        assertThat(admitted(wl).getObservedGeneration()).isEqualTo(1L);
    }

    @Test
    void reservationChecksNotReadyWithObservability() {
        Workload wl = reserved(workload(state("check1", CheckState.Pending), state("check2", CheckState.Ready)));
        assertThat(AdmissionCheckStates.syncAdmitted(wl, NOW)).isTrue();
        assertThat(admitted(wl).getStatus()).isEqualTo("False");
        assertThat(admitted(wl).getReason()).isEqualTo("UnsatisfiedAdmissionChecks");
        assertThat(admitted(wl).getMessage()).isEqualTo("The workload has not all checks ready");
    }

    @Test
    void reservationChecksReady() {
        Workload wl = reserved(workload(state("check1", CheckState.Ready), state("check2", CheckState.Ready)));
        assertThat(AdmissionCheckStates.syncAdmitted(wl, NOW)).isTrue();
        assertThat(admitted(wl).getStatus()).isEqualTo("True");
        assertThat(admitted(wl).getMessage()).isEqualTo("The workload is admitted");
    }

    @Test
    void checkLostWithObservability() {
        Workload wl = reserved(workload(state("check1", CheckState.Ready), state("check2", CheckState.Pending)));
        wl.getStatus().setConditions(Conditions.set(wl.getStatus().getConditions(), WorkloadConditions.ADMITTED, true,
                "Admitted", "The workload is admitted", 1L, NOW.minusSeconds(1)));
        assertThat(AdmissionCheckStates.syncAdmitted(wl, NOW)).isTrue();
        assertThat(admitted(wl).getStatus()).isEqualTo("False");
        assertThat(admitted(wl).getReason()).isEqualTo("UnsatisfiedAdmissionChecks");
    }

    @Test
    void syncingAnUnchangedConditionChangesNothing() {
        Workload wl = reserved(workload(state("check1", CheckState.Pending)));
        AdmissionCheckStates.syncAdmitted(wl, NOW);
        String since = admitted(wl).getLastTransitionTime();
        assertThat(AdmissionCheckStates.syncAdmitted(wl, NOW.plusSeconds(5))).isFalse();
        assertThat(admitted(wl).getLastTransitionTime()).isEqualTo(since);
    }

    // ---- TestGetMaxRetryTime ----

    @Test
    void noAdmissionChecks() {
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload())).isEmpty();
    }

    @Test
    void admissionCheckWithNilRequeueAfterSeconds() {
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload(state("check1", CheckState.Retry, NOW, null))))
                .isEmpty();
    }

    @Test
    void admissionCheckWithZeroLastTransitionTime() {
        AdmissionCheckState c = state("check1", CheckState.Retry, null, 60);
        c.setLastTransitionTime("0001-01-01T00:00:00Z");
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload(c))).isEmpty();
    }

    @Test
    void singleAdmissionCheckWithValidRetryTime() {
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload(state("check1", CheckState.Retry, NOW, 60))))
                .hasValue(NOW.plusSeconds(60).toEpochMilli());
    }

    @Test
    void multipleAdmissionChecksReturnsMaxRetryTime() {
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload(state("check1", CheckState.Retry, NOW, 60),
                state("check2", CheckState.Retry, NOW, 120), state("check3", CheckState.Retry, NOW, 30))))
                .hasValue(NOW.plusSeconds(120).toEpochMilli());
    }

    @Test
    void multipleChecksWithMixedNilAndValidValues() {
        AdmissionCheckState zero = state("check3", CheckState.Retry, null, 180);
        zero.setLastTransitionTime("0001-01-01T00:00:00Z");
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload(state("check1", CheckState.Retry, NOW, null),
                state("check2", CheckState.Retry, NOW, 90), zero))).hasValue(NOW.plusSeconds(90).toEpochMilli());
    }

    @Test
    void checksWithDifferentBaseTimes() {
        assertThat(AdmissionCheckStates.maxRetryTimeMillis(workload(state("check1", CheckState.Retry, NOW, 60),
                state("check2", CheckState.Retry, NOW.plusSeconds(30), 60))))
                .hasValue(NOW.plusSeconds(90).toEpochMilli());
    }

    // ---- syncAdmissionCheckConditions, buildAdmissionChecksMessage, resetChecksOnEviction ----

    @Test
    void syncAddsMissingChecksPendingKeepsStatesAndDropsTheOthersSorted() {
        AdmissionCheckState check2 = state("check2", CheckState.Retry, NOW.minusSeconds(30), null);
        check2.setMessage("check rejected");
        Workload wl = workload(state("check1", CheckState.Ready, NOW, null), check2);
        assertThat(AdmissionCheckStates.sync(wl, List.of("check3", "check2"), NOW)).isTrue();
        List<AdmissionCheckState> after = wl.getStatus().getAdmissionChecks();
        assertThat(after).extracting(AdmissionCheckState::getName).containsExactly("check2", "check3");
        assertThat(after.get(0)).isSameAs(check2);
        assertThat(after.get(1).getState()).isEqualTo(CheckState.Pending);
        assertThat(after.get(1).getLastTransitionTime()).isEqualTo(NOW.toString());
        assertThat(AdmissionCheckStates.sync(wl, List.of("check2", "check3"), NOW)).isFalse();
        assertThat(AdmissionCheckStates.sync(wl, List.of(), NOW)).isTrue();
        assertThat(wl.getStatus().getAdmissionChecks()).isNull();
    }

    @Test
    void messageNamesTheChecksWithTheirMessages() {
        AdmissionCheckState b = state("check-b", CheckState.Rejected);
        b.setMessage("no capacity");
        AdmissionCheckState a = state("check-a", CheckState.Rejected);
        assertThat(AdmissionCheckStates.message(List.of(b), CheckState.Rejected))
                .isEqualTo("AdmissionCheck in Rejected state: \"check-b\" (no capacity)");
        assertThat(AdmissionCheckStates.message(List.of(b, a), CheckState.Rejected))
                .isEqualTo("AdmissionChecks in Rejected state: \"check-a\"; \"check-b\" (no capacity)");
    }

    @Test
    void evictionResetsChecksToPendingAndCountsARetry() {
        AdmissionCheckState retry = state("retry", CheckState.Retry, NOW.minusSeconds(10), 60);
        retry.setRetryCount(1);
        Workload wl = workload(state("pending", CheckState.Pending, NOW.minusSeconds(10), null),
                state("ready", CheckState.Ready, NOW.minusSeconds(10), null), retry);
        AdmissionCheckStates.resetOnEviction(wl, NOW);
        List<AdmissionCheckState> after = wl.getStatus().getAdmissionChecks();
        assertThat(after.get(0).getLastTransitionTime()).isEqualTo(NOW.minusSeconds(10).toString());
        assertThat(after.get(1).getState()).isEqualTo(CheckState.Pending);
        assertThat(after.get(1).getMessage()).isEqualTo("Reset to Pending after eviction. Previously: Ready");
        assertThat(after.get(1).getRetryCount()).isNull();
        assertThat(after.get(2).getState()).isEqualTo(CheckState.Pending);
        assertThat(after.get(2).getMessage()).isEqualTo("Reset to Pending after eviction. Previously: Retry");
        assertThat(after.get(2).getRetryCount()).isEqualTo(2);
        assertThat(after.get(2).getRequeueAfterSeconds()).isEqualTo(60);
        assertThat(after.get(2).getLastTransitionTime()).isEqualTo(NOW.toString());
    }

    @Test
    void admitWithChecksReservesButDoesNotAdmit() {
        Workload wl = workload();
        WorkloadConditions.admit(wl, new Admission(), "Quota reserved in ClusterQueue cq", List.of("check1"), NOW);
        assertThat(WorkloadConditions.isTrue(wl, WorkloadConditions.QUOTA_RESERVED)).isTrue();
        assertThat(admitted(wl).getReason()).isEqualTo("UnsatisfiedAdmissionChecks");
        assertThat(WorkloadConditions.mayRun(wl)).isFalse();
        assertThat(wl.getStatus().getAdmissionChecks()).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("check1");
            assertThat(c.getState()).isEqualTo(CheckState.Pending);
        });
    }
}
