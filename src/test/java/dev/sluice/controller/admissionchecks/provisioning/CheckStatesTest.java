package dev.sluice.controller.admissionchecks.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.Queues;
import dev.sluice.controller.conditions.Conditions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mapping of a ProvisioningRequest's conditions to the check's state, without an API server: Kueue's
 * TestReconcile state cases and TestUpdateCheckMessage (controller_test.go), and the backoff of its retry strategy.
 */
class CheckStatesTest {

    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");

    static Workload workload(String... trueConditions) {
        Workload wl = Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: ns}
                spec:
                  podSets:
                  - {name: ps1, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
                  - {name: ps2, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {memory: 1M}}}]}}}
                status:
                  admission:
                    clusterQueue: q1
                    podSetAssignments:
                    - {name: ps1, flavors: {cpu: flv1}, count: 4}
                    - {name: ps2, flavors: {cpu: flv2}, count: 3}
                """);
        List<io.fabric8.kubernetes.api.model.Condition> conditions = new ArrayList<>();
        conditions = Conditions.set(conditions, "QuotaReserved", true, "QuotaReserved", "", null, NOW);
        for (String c : trueConditions) {
            conditions = Conditions.set(conditions, c, true, "ByTest", "", null, NOW);
        }
        wl.getStatus().setConditions(conditions);
        return wl;
    }

    static ProvisioningRequestConfig config(int retryLimit) {
        return Queues.yaml(ProvisioningRequestConfig.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ProvisioningRequestConfig
                metadata: {name: config1}
                spec:
                  provisioningClassName: class1
                  parameters: {p1: v1}
                  retryStrategy: {backoffLimitCount: %d, backoffBaseSeconds: 60, backoffMaxSeconds: 1800}
                  podSetUpdates:
                    nodeSelector: [{key: node-selector-key, valueFromProvisioningClassDetail: node-selector-value}]
                """.formatted(retryLimit));
    }

    /** Kueue's baseRequest wl-check1-<attempt> with conditions "Type=Status:message". */
    static GenericKubernetesResource request(int attempt, Map<String, String> details, String... conditions) {
        StringBuilder c = new StringBuilder();
        for (String cond : conditions) {
            String[] tr = cond.split("=", 2);
            String[] sm = tr[1].split(":", 2);
            c.append("\n  - {type: ").append(tr[0]).append(", status: \"").append(sm[0]).append("\", message: \"")
                    .append(sm.length > 1 ? sm[1] : "").append("\"}");
        }
        GenericKubernetesResource pr = Queues.yaml(GenericKubernetesResource.class, """
                apiVersion: autoscaling.x-k8s.io/v1
                kind: ProvisioningRequest
                metadata: {name: wl-check1-%d, namespace: ns}
                spec:
                  provisioningClassName: class1
                  parameters: {p1: v1}
                  podSets:
                  - {podTemplateRef: {name: ppt-wl-check1-%d-ps1}, count: 4}
                  - {podTemplateRef: {name: ppt-wl-check1-%d-ps2}, count: 3}
                status:
                  conditions:%s
                """.formatted(attempt, attempt, attempt, c.length() == 0 ? " []" : c));
        if (!details.isEmpty()) {
            ProvisioningRequests.status(pr).put("provisioningClassDetails", details);
        }
        return pr;
    }

    static AdmissionCheckState pending(Integer retryCount, String message) {
        AdmissionCheckState s = new AdmissionCheckState();
        s.setName("check1");
        s.setState(CheckState.Pending);
        s.setMessage(message);
        s.setRetryCount(retryCount);
        return s;
    }

    private static AdmissionCheckState next(Workload wl, ProvisioningRequestConfig config, GenericKubernetesResource pr) {
        return CheckStates.next(pending(null, ""), config, wl, pr).state();
    }

    @Test
    void missingConfig() {
        CheckStates.Next n = CheckStates.next(pending(null, ""), null, workload(), null);
        assertThat(n.changed()).isTrue();
        assertThat(n.state().getState()).isEqualTo(CheckState.Pending);
        assertThat(n.state().getMessage()).isEqualTo("the check is not active");
    }

    @Test
    void noRequestYetDecidesNothing() {
        assertThat(CheckStates.next(pending(null, ""), config(3), workload(), null)).isNull();
    }

    @Test
    void whenRequestFailsAndIsRetried() {
        AdmissionCheckState s = next(workload(), config(2), request(1, Map.of(), "Failed=True:By test"));
        assertThat(s.getState()).isEqualTo(CheckState.Retry);
        assertThat(s.getMessage()).isEqualTo("Retrying after failure: By test");
        assertThat(s.getRequeueAfterSeconds()).isEqualTo(60);
    }

    @Test
    void anOlderRequestsFailureIsNotRetriedAgain() {
        // attempt 1 failed and was counted (retryCount 1): Pending keeps, with the message; the next request follows
        CheckStates.Next n = CheckStates.next(pending(1, "Retrying after failure: By test"), config(2), workload(),
                request(1, Map.of(), "Failed=True:By test"));
        assertThat(n.changed()).isFalse();
        assertThat(n.state().getState()).isEqualTo(CheckState.Pending);
    }

    @Test
    void whenRequestFailsAndThereIsNoRetry() {
        AdmissionCheckState s = next(workload(), config(0), request(1, Map.of(), "Failed=True:By test"));
        assertThat(s.getState()).isEqualTo(CheckState.Rejected);
        assertThat(s.getMessage()).isEqualTo("By test");
    }

    @Test
    void whenRequestIsProvisioned() {
        AdmissionCheckState s = next(workload(), config(3), request(1, Map.of(), "Provisioned=True:By test"));
        assertThat(s.getState()).isEqualTo(CheckState.Ready);
        assertThat(s.getMessage()).isEqualTo("By test");
        assertThat(s.getPodSetUpdates()).hasSize(2);
        assertThat(s.getPodSetUpdates().get(0).getName()).isEqualTo("ps1");
        assertThat(s.getPodSetUpdates().get(1).getName()).isEqualTo("ps2");
        assertThat(s.getPodSetUpdates().get(0).getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "autoscaling.x-k8s.io/consume-provisioning-request", "wl-check1-1",
                "autoscaling.x-k8s.io/provisioning-class-name", "class1"));
        assertThat(s.getPodSetUpdates().get(0).getNodeSelector()).isNull();
    }

    @Test
    void whenRequestIsProvisionedAndHasNodeSelectorSpecifiedViaProvisioningClassDetail() {
        AdmissionCheckState s = next(workload(), config(3), request(1, Map.of("node-selector-value", "nodes-selector-xyz"),
                "Provisioned=True:By test"));
        assertThat(s.getPodSetUpdates()).allSatisfy(u -> assertThat(u.getNodeSelector())
                .containsExactlyEntriesOf(Map.of("node-selector-key", "nodes-selector-xyz")));
    }

    @Test
    void whenRequestIsProvisionedAndHasNodeSelectorMissingInTheProvisioningClassDetail() {
        AdmissionCheckState s = next(workload(), config(3), request(1, Map.of("some-detail", "xyz"),
                "Provisioned=True:By test"));
        assertThat(s.getState()).isEqualTo(CheckState.Ready);
        assertThat(s.getPodSetUpdates()).allSatisfy(u -> assertThat(u.getNodeSelector()).isNull());
    }

    @Test
    void whenTheRequestIsProvisionedThePreviousCheckMessageIsCleared() {
        CheckStates.Next n = CheckStates.next(pending(null, "Error creating ProvisioningRequest \"wl-check1-1\": exists"),
                config(3), workload(), request(1, Map.of(), "Provisioned=True:"));
        assertThat(n.state().getState()).isEqualTo(CheckState.Ready);
        assertThat(n.state().getMessage()).isEmpty();
    }

    @Test
    void whenTheRequestHasNoConditionsYetThePreviousCheckMessageIsCleared() {
        CheckStates.Next n = CheckStates.next(pending(null, "Error creating ProvisioningRequest \"wl-check1-1\": exists"),
                config(3), workload(), request(1, Map.of()));
        assertThat(n.changed()).isTrue();
        assertThat(n.state().getState()).isEqualTo(CheckState.Pending);
        assertThat(n.state().getMessage()).isEmpty();
    }

    @Test
    void workloadsStatusGetsUpdatedBasedOnTheProvisioningRequest() {
        AdmissionCheckState s = next(workload(), config(3), request(1, Map.of(), "Failed=False:",
                "Provisioned=False:Provisioning Request wasn't provisioned. ETA: 2024-02-22T10:36:40Z", "Accepted=True:"));
        assertThat(s.getState()).isEqualTo(CheckState.Pending);
        assertThat(s.getMessage()).isEqualTo("Provisioning Request wasn't provisioned. ETA: 2024-02-22T10:36:40Z");
    }

    @Test
    void workloadSetsAdmissionCheckStatusToRejectedWhenItIsNotAdmittedAndReceivesTheProvisioningRequestsCapacityRevokedCondition() {
        AdmissionCheckState s = next(workload(), config(3), request(1, Map.of(), "Failed=False:", "Provisioned=True:",
                "Accepted=True:", "CapacityRevoked=True:"));
        assertThat(s.getState()).isEqualTo(CheckState.Rejected);
    }

    @Test
    void aDeactivatedWorkloadIsNotRejectedOnCapacityRevoked() {
        Workload wl = workload("Admitted");
        wl.getSpec().setActive(false);
        CheckStates.Next n = CheckStates.next(pending(null, ""), config(3), wl,
                request(1, Map.of(), "Provisioned=True:", "CapacityRevoked=True:"));
        assertThat(n.changed()).isFalse();
    }

    @Test
    void workloadDoesNothingWhenAdmittedAndReceivesTheProvisioningRequestsBookingExpiredCondition() {
        CheckStates.Next n = CheckStates.next(pending(null, ""), config(3), workload("Admitted"),
                request(1, Map.of(), "Failed=False:", "Provisioned=True:", "Accepted=True:", "BookingExpired=True:"));
        assertThat(n.changed()).isFalse();
        assertThat(n.state().getState()).isEqualTo(CheckState.Pending);
    }

    @Test
    void workloadRetriesTheAdmissionCheckWhenIsNotAdmittedAndReceivesTheProvisioningRequestsBookingExpiredCondition() {
        AdmissionCheckState s = next(workload(), config(1), request(1, Map.of(), "Failed=False:", "Provisioned=True:",
                "Accepted=True:", "BookingExpired=True:Expired By test"));
        assertThat(s.getState()).isEqualTo(CheckState.Retry);
        assertThat(s.getMessage()).isEqualTo("Retrying after booking expired: Expired By test");
        assertThat(s.getRequeueAfterSeconds()).isEqualTo(60);
    }

    @Test
    void workloadRejectsTheAdmissionCheckWhenIsNotAdmittedAndReceivesTheProvisioningRequestsBookingExpiredCondition() {
        AdmissionCheckState s = next(workload(), config(0), request(1, Map.of(), "Failed=False:", "Provisioned=True:",
                "Accepted=True:", "BookingExpired=True:"));
        assertThat(s.getState()).isEqualTo(CheckState.Rejected);
        assertThat(s.getMessage()).isEmpty();
    }

    @Test
    void withOnlyZeroCountPodSets() {
        Workload wl = workload();
        wl.getSpec().getPodSets().forEach(ps -> ps.setCount(0));
        wl.getStatus().getAdmission().getPodSetAssignments().forEach(a -> a.setCount(0));
        AdmissionCheckState s = next(wl, config(3), request(1, Map.of()));
        assertThat(s.getState()).isEqualTo(CheckState.Ready);
        assertThat(s.getMessage()).isEqualTo("the provisioning request is not needed");
        assertThat(s.getPodSetUpdates()).isNull();
    }

    @Test
    void backoffDoublesFromTheBaseUpToTheMax() {
        CheckStates.Backoff b = new CheckStates.Backoff(3, 60, 1800);
        assertThat(List.of(b.requeueAfterSeconds(1), b.requeueAfterSeconds(2), b.requeueAfterSeconds(3),
                b.requeueAfterSeconds(6), b.requeueAfterSeconds(40))).containsExactly(60, 120, 240, 1800, 1800);
        assertThat(CheckStates.Backoff.of(null)).isEqualTo(new CheckStates.Backoff(3, 60, 1800));
    }

    @Test
    void putKeepsTheRetryCountAndTimesOnlyAStateChange() {
        AdmissionCheckState existing = pending(2, "");
        existing.setLastTransitionTime("2026-12-02T10:00:00Z");
        List<AdmissionCheckState> checks = new ArrayList<>(List.of(existing));
        AdmissionCheckState next = pending(null, "ETA soon");
        CheckStates.put(checks, next, NOW);
        assertThat(checks.get(0).getLastTransitionTime()).isEqualTo("2026-12-02T10:00:00Z");
        assertThat(checks.get(0).getRetryCount()).isEqualTo(2);
        assertThat(checks.get(0).getMessage()).isEqualTo("ETA soon");
        next.setState(CheckState.Ready);
        CheckStates.put(checks, next, NOW);
        assertThat(checks.get(0).getLastTransitionTime()).isEqualTo("2026-12-02T12:00:00Z");
    }

    // TestUpdateCheckMessage

    private static void updateCheckMessage(String message, String newMessage, String want, boolean wantChanged) {
        AdmissionCheckState s = pending(null, message);
        assertThat(CheckStates.setMessage(s, newMessage)).isEqualTo(wantChanged);
        assertThat(s.getMessage() == null ? "" : s.getMessage()).isEqualTo(want);
    }

    @Test
    void setsAMessageOnACheckThatHasNone() {
        updateCheckMessage(null, "provisioned", "provisioned", true);
    }

    @Test
    void replacesAnExistingMessage() {
        updateCheckMessage("waiting for capacity", "provisioned", "provisioned", true);
    }

    @Test
    void clearsAnExistingMessageWhenTheNewOneIsEmpty() {
        updateCheckMessage("Error creating ProvisioningRequest \"wl-check1-1\": already exists", "", "", true);
    }

    @Test
    void reportsNoChangeWhenTheMessageIsUnchanged() {
        updateCheckMessage("provisioned", "provisioned", "provisioned", false);
    }

    @Test
    void reportsNoChangeWhenBothMessagesAreEmpty() {
        updateCheckMessage(null, "", "", false);
    }
}
