package dev.sluice.controller.admissionchecks.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.PodSetUpdate;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.Cluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ProvisioningRequest admission check controller against the test API server, with the autoscaler's own
 * ProvisioningRequest CRD: Kueue's {@code TestReconcile} cases (controller_test.go), each in its own namespace with its
 * own check and config, named after the Go case. The test writes the Workload as the admission-check framework leaves
 * it (QuotaReserved, the check Pending) and plays the cluster autoscaler (the request's conditions) and, where a case
 * needs it, the framework (retry count, Admitted).
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ProvisioningRequestControllerTest {

    @Inject
    KubernetesClient client;
    @Inject
    ProvisioningController controller;

    Fixtures f;

    @BeforeEach
    void setUp() {
        f = new Fixtures(client);
        f.installProvisioningRequestCrd();
        f.flavors();
        await().atMost(Fixtures.TIMEOUT).until(controller::running);
    }

    private String ns(String name) {
        new Cluster(client).namespace(name);
        return name;
    }

    private List<Event> events(String ns, String involved) {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> involved.equals(e.getInvolvedObject().getName())).toList();
    }

    private void awaitEvent(String ns, String involved, String reason, String message) {
        await().atMost(Fixtures.TIMEOUT).untilAsserted(() -> assertThat(events(ns, involved))
                .anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo(reason);
                    assertThat(e.getMessage()).isEqualTo(message);
                }));
    }

    private static Map<String, String> consume(String request) {
        return Map.of(ProvisioningRequests.CONSUME_ANNOTATION, request, ProvisioningRequests.CLASS_ANNOTATION, "class1");
    }

    @Test
    void withConfig() {
        String ns = ns("pr-with-config");
        f.config("config-with", Fixtures.baseConfig(3));
        f.activeCheck("check-with", "config-with");
        Workload wl = f.baseWorkload(ns, "check-with");

        GenericKubernetesResource pr = f.awaitRequest(ns, "wl-check-with-1");
        assertThat(pr.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("kueue.x-k8s.io/managed", "true"));
        OwnerReference owner = pr.getMetadata().getOwnerReferences().get(0);
        assertThat(owner.getKind()).isEqualTo("Workload");
        assertThat(owner.getName()).isEqualTo("wl");
        assertThat(owner.getUid()).isEqualTo(wl.getMetadata().getUid());
        assertThat(owner.getController()).isTrue();
        assertThat(ProvisioningRequests.className(pr)).isEqualTo("class1");
        assertThat(ProvisioningRequests.parameters(pr)).containsExactlyEntriesOf(Map.of("p1", "v1"));
        assertThat(ProvisioningRequests.podSets(pr)).containsExactly(
                new ProvisioningRequests.PodSet("ppt-wl-check-with-1-ps1", 4),
                new ProvisioningRequests.PodSet("ppt-wl-check-with-1-ps2", 3));
        awaitEvent(ns, "wl", "ProvisioningRequestCreated", "Created ProvisioningRequest: \"wl-check-with-1\"");

        // the templates: the pod set's, with the flavor's node labels and tolerations, handed over to the request
        PodTemplate ps1 = await().atMost(Fixtures.TIMEOUT).until(
                () -> client.v1().podTemplates().inNamespace(ns).withName("ppt-wl-check-with-1-ps1").get(),
                pt -> pt != null && pt.getMetadata().getOwnerReferences().size() == 1
                        && "ProvisioningRequest".equals(pt.getMetadata().getOwnerReferences().get(0).getKind()));
        assertThat(ps1.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/managed", "true");
        assertThat(ps1.getMetadata().getOwnerReferences().get(0).getName()).isEqualTo("wl-check-with-1");
        assertThat(ps1.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo(pr.getMetadata().getUid());
        assertThat(ps1.getTemplate().getSpec().getNodeSelector()).containsExactlyEntriesOf(Map.of("f1l1", "v1"));
        assertThat(ps1.getTemplate().getSpec().getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("f1t1k");
            assertThat(t.getValue()).isEqualTo("f1t1v");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(ps1.getTemplate().getSpec().getContainers().get(0).getResources().getRequests())
                .containsKey("cpu");
        PodTemplate ps2 = client.v1().podTemplates().inNamespace(ns).withName("ppt-wl-check-with-1-ps2").get();
        assertThat(ps2.getTemplate().getSpec().getNodeSelector()).containsExactlyEntriesOf(Map.of("f2l1", "v1"));
        assertThat(ps2.getTemplate().getSpec().getTolerations()).isNullOrEmpty();

        // nothing reported yet: the check stays Pending, the other check is not this controller's
        Workload now = f.read(ns, "wl");
        assertThat(WorkloadReconciler.find(now.getStatus().getAdmissionChecks(), "check-with").getState())
                .isEqualTo(CheckState.Pending);
        assertThat(WorkloadReconciler.find(now.getStatus().getAdmissionChecks(), "not-provisioning").getState())
                .isEqualTo(CheckState.Pending);
    }

    @Test
    void missingConfig() {
        String ns = ns("pr-missing-config");
        f.check("check-missing", "{apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: config-missing}");
        f.awaitActive("check-missing", "False");
        f.baseWorkload(ns, "check-missing");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-missing",
                c -> CheckStates.CHECK_INACTIVE.equals(c.getMessage()));
        assertThat(s.getState()).isEqualTo(CheckState.Pending);
        assertThat(f.request(ns, "wl-check-missing-1")).isNull();
    }

    @Test
    void whenRequestIsProvisioned() {
        String ns = ns("pr-provisioned");
        f.config("config-provisioned", Fixtures.baseConfig(3));
        f.activeCheck("check-provisioned", "config-provisioned");
        f.baseWorkload(ns, "check-provisioned");
        f.awaitRequest(ns, "wl-check-provisioned-1");

        f.autoscalerSets(ns, "wl-check-provisioned-1", Map.of(), "Provisioned=True:By test");

        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-provisioned", c -> c.getState() == CheckState.Ready);
        assertThat(s.getMessage()).isEqualTo("By test");
        assertThat(s.getPodSetUpdates()).extracting(PodSetUpdate::getName).containsExactly("ps1", "ps2");
        assertThat(s.getPodSetUpdates()).allSatisfy(u -> {
            assertThat(u.getAnnotations()).containsExactlyInAnyOrderEntriesOf(consume("wl-check-provisioned-1"));
            assertThat(u.getNodeSelector()).isNull();
        });
        awaitEvent(ns, "wl", "AdmissionCheckUpdated",
                "Admission check check-provisioned updated state from Pending to Ready with message: By test");
    }

    /** Kueue's "when request fails and is retried", on through the framework's retries to the limit. */
    @Test
    void whenRequestFailsAndIsRetried() {
        String ns = ns("pr-retried");
        f.config("config-retried", Fixtures.baseConfig(2));
        f.activeCheck("check-retried", "config-retried");
        f.baseWorkload(ns, "check-retried");
        f.awaitRequest(ns, "wl-check-retried-1");

        f.autoscalerSets(ns, "wl-check-retried-1", Map.of(), "Failed=True:By test");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-retried", c -> c.getState() == CheckState.Retry);
        assertThat(s.getMessage()).isEqualTo("Retrying after failure: By test");
        assertThat(s.getRequeueAfterSeconds()).isEqualTo(60);
        awaitEvent(ns, "wl", "AdmissionCheckUpdated",
                "Admission check check-retried updated state from Pending to Retry with message: Retrying after failure: By test");

        // the framework releases the quota, counts the retry and, the backoff over, reserves again: attempt 2
        framework(ns, "check-retried", 1);
        f.awaitRequest(ns, "wl-check-retried-2");
        f.awaitNoRequest(ns, "wl-check-retried-1");
        f.autoscalerSets(ns, "wl-check-retried-2", Map.of(), "Failed=True:By test again");
        s = f.awaitCheck(ns, "wl", "check-retried", c -> c.getState() == CheckState.Retry);
        assertThat(s.getMessage()).isEqualTo("Retrying after failure: By test again");
        assertThat(s.getRequeueAfterSeconds()).as("60 s doubled").isEqualTo(120);

        // attempt 3 is past backoffLimitCount 2: Rejected, with the autoscaler's message
        framework(ns, "check-retried", 2);
        f.awaitRequest(ns, "wl-check-retried-3");
        f.autoscalerSets(ns, "wl-check-retried-3", Map.of(), "Failed=True:By test at last");
        s = f.awaitCheck(ns, "wl", "check-retried", c -> c.getState() == CheckState.Rejected);
        assertThat(s.getMessage()).isEqualTo("By test at last");
        assertThat(s.getRetryCount()).isEqualTo(2);
    }

    /** The framework's part after a Retry: the retry counted, the check Pending again (quota reserved again). */
    private void framework(String ns, String check, int retryCount) {
        client.resources(Workload.class).inNamespace(ns).withName("wl").editStatus(w -> {
            AdmissionCheckState s = WorkloadReconciler.find(w.getStatus().getAdmissionChecks(), check);
            s.setState(CheckState.Pending);
            s.setRetryCount(retryCount);
            s.setRequeueAfterSeconds(null);
            return w;
        });
    }

    @Test
    void whenRequestFailsAndThereIsNoRetry() {
        String ns = ns("pr-no-retry");
        f.config("config-no-retry", Fixtures.baseConfig(0));
        f.activeCheck("check-no-retry", "config-no-retry");
        f.baseWorkload(ns, "check-no-retry");
        f.awaitRequest(ns, "wl-check-no-retry-1");
        f.autoscalerSets(ns, "wl-check-no-retry-1", Map.of(), "Failed=True:By test");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-no-retry", c -> c.getState() == CheckState.Rejected);
        assertThat(s.getMessage()).isEqualTo("By test");
        assertThat(s.getRequeueAfterSeconds()).isNull();
        awaitEvent(ns, "wl", "AdmissionCheckUpdated",
                "Admission check check-no-retry updated state from Pending to Rejected with message: By test");
    }

    @Test
    void whenRetryCountIsPreservedButProvisioningRequestWasCleanedUp() {
        String ns = ns("pr-cleaned-up");
        f.config("config-cleaned", Fixtures.baseConfig(3));
        f.activeCheck("check-cleaned", "config-cleaned");
        AdmissionCheckState pending = Fixtures.pending("check-cleaned");
        pending.setRetryCount(1);
        f.workload(ns, "wl", basePodSets(), Map.of(), baseAssignments(),
                List.of(pending, Fixtures.pending("not-provisioning")), List.of());
        GenericKubernetesResource pr = f.awaitRequest(ns, "wl-check-cleaned-2");
        assertThat(ProvisioningRequests.podSets(pr)).containsExactly(
                new ProvisioningRequests.PodSet("ppt-wl-check-cleaned-2-ps1", 4),
                new ProvisioningRequests.PodSet("ppt-wl-check-cleaned-2-ps2", 3));
        awaitEvent(ns, "wl", "ProvisioningRequestCreated", "Created ProvisioningRequest: \"wl-check-cleaned-2\"");
        assertThat(f.request(ns, "wl-check-cleaned-1")).isNull();
    }

    @Test
    void workloadRetriesTheAdmissionCheckWhenIsNotAdmittedAndReceivesTheProvisioningRequestsBookingExpiredCondition() {
        String ns = ns("pr-booking-retry");
        f.config("config-booking-retry", Fixtures.baseConfig(1));
        f.activeCheck("check-booking-retry", "config-booking-retry");
        f.baseWorkload(ns, "check-booking-retry");
        f.awaitRequest(ns, "wl-check-booking-retry-1");
        f.autoscalerSets(ns, "wl-check-booking-retry-1", Map.of(), "Failed=False:", "Provisioned=True:",
                "Accepted=True:", "BookingExpired=True:Expired By test");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-booking-retry", c -> c.getState() == CheckState.Retry);
        assertThat(s.getMessage()).isEqualTo("Retrying after booking expired: Expired By test");
        assertThat(s.getRequeueAfterSeconds()).isEqualTo(60);
        // retried once (the limit), the next attempt's expiry rejects
        framework(ns, "check-booking-retry", 1);
        f.awaitRequest(ns, "wl-check-booking-retry-2");
        f.autoscalerSets(ns, "wl-check-booking-retry-2", Map.of(), "Provisioned=True:", "Accepted=True:",
                "BookingExpired=True:Expired again");
        s = f.awaitCheck(ns, "wl", "check-booking-retry", c -> c.getState() == CheckState.Rejected);
        assertThat(s.getMessage()).isEqualTo("Expired again");
    }

    @Test
    void workloadDoesNothingWhenAdmittedAndReceivesTheProvisioningRequestsBookingExpiredCondition() {
        String ns = ns("pr-booking-admitted");
        f.config("config-booking-admitted", Fixtures.baseConfig(3));
        f.activeCheck("check-booking-admitted", "config-booking-admitted");
        f.workload(ns, "wl", basePodSets(), Map.of(), baseAssignments(),
                List.of(Fixtures.pending("check-booking-admitted")), List.of("Admitted"));
        f.awaitRequest(ns, "wl-check-booking-admitted-1");
        f.autoscalerSets(ns, "wl-check-booking-admitted-1", Map.of(), "Failed=False:", "Provisioned=True:",
                "Accepted=True:", "BookingExpired=True:");
        afterTheControllerSawIt(ns, "check-booking-admitted");
        AdmissionCheckState s = WorkloadReconciler.find(f.read(ns, "wl").getStatus().getAdmissionChecks(),
                "check-booking-admitted");
        assertThat(s.getState()).isEqualTo(CheckState.Pending);
        assertThat(s.getMessage()).isEmpty();
        assertThat(f.request(ns, "wl-check-booking-admitted-2")).isNull();
    }

    /**
     * Waits until the controller has reconciled what the autoscaler wrote last in {@code ns}: another Workload's
     * request, provisioned after it on the same watch, is Ready (one thread reconciles in the order events came).
     */
    private void afterTheControllerSawIt(String ns, String check) {
        f.workload(ns, "sentinel", basePodSets(), Map.of(), baseAssignments(), List.of(Fixtures.pending(check)),
                List.of());
        f.awaitRequest(ns, "sentinel-" + check + "-1");
        f.autoscalerSets(ns, "sentinel-" + check + "-1", Map.of(), "Provisioned=True:");
        f.awaitCheck(ns, "sentinel", check, c -> c.getState() == CheckState.Ready);
    }

    @Test
    void workloadSetsAdmissionCheckStatusToRejectedWhenItIsNotFinishedAndReceivesTheProvisioningRequestsCapacityRevokedCondition() {
        String ns = ns("pr-revoked");
        f.config("config-revoked", Fixtures.baseConfig(3));
        f.activeCheck("check-revoked", "config-revoked");
        f.workload(ns, "wl", basePodSets(), Map.of(), baseAssignments(),
                List.of(Fixtures.pending("check-revoked")), List.of("Admitted"));
        f.awaitRequest(ns, "wl-check-revoked-1");
        f.autoscalerSets(ns, "wl-check-revoked-1", Map.of(), "Failed=False:", "Provisioned=True:", "Accepted=True:",
                "CapacityRevoked=True:");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-revoked", c -> c.getState() == CheckState.Rejected);
        assertThat(s.getMessage()).isEmpty();
        awaitEvent(ns, "wl", "AdmissionCheckUpdated",
                "Admission check check-revoked updated state from Pending to Rejected");
    }

    @Test
    void requestRemovedOnWorkloadFinished() {
        String ns = ns("pr-finished");
        f.config("config-finished", Fixtures.baseConfig(3));
        f.activeCheck("check-finished", "config-finished");
        f.baseWorkload(ns, "check-finished");
        f.awaitRequest(ns, "wl-check-finished-1");
        setCondition(ns, "Finished");
        f.awaitNoRequest(ns, "wl-check-finished-1");
    }

    @Test
    void requestRemovedOnWorkloadEvicted() {
        String ns = ns("pr-evicted");
        f.config("config-evicted", Fixtures.baseConfig(3));
        f.activeCheck("check-evicted", "config-evicted");
        f.baseWorkload(ns, "check-evicted");
        f.awaitRequest(ns, "wl-check-evicted-1");
        setCondition(ns, "Evicted");
        f.awaitNoRequest(ns, "wl-check-evicted-1");
    }

    private void setCondition(String ns, String type) {
        client.resources(Workload.class).inNamespace(ns).withName("wl").editStatus(w -> {
            w.getStatus().setConditions(dev.sluice.controller.conditions.Conditions.set(w.getStatus().getConditions(),
                    type, true, "ByTest", "by test", null, java.time.Instant.parse("2026-12-02T11:00:00Z")));
            return w;
        });
    }

    @Test
    void whenNoRequestIsNeeded() {
        String ns = ns("pr-not-needed");
        f.config("config-not-needed", "{provisioningClassName: class1, parameters: {p1: v1}, "
                + "managedResources: [example.org/gpu]}");
        f.activeCheck("check-not-needed", "config-not-needed");
        f.baseWorkload(ns, "check-not-needed");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-not-needed", c -> c.getState() == CheckState.Ready);
        assertThat(s.getMessage()).isEqualTo(CheckStates.NO_REQUEST_NEEDED);
        assertThat(s.getPodSetUpdates()).isNullOrEmpty();
        awaitEvent(ns, "wl", "AdmissionCheckUpdated", "Admission check check-not-needed updated state from Pending "
                + "to Ready with message: the provisioning request is not needed");
        assertThat(f.request(ns, "wl-check-not-needed-1")).isNull();
    }

    @Test
    void whenRequestIsNeededForOnePodSetResourceRequest() {
        String ns = ns("pr-one-podset");
        f.config("config-one-podset", "{provisioningClassName: class1, parameters: {p1: v1}, managedResources: [memory]}");
        f.activeCheck("check-one-podset", "config-one-podset");
        f.baseWorkload(ns, "check-one-podset");
        GenericKubernetesResource pr = f.awaitRequest(ns, "wl-check-one-podset-1");
        assertThat(ProvisioningRequests.podSets(pr))
                .containsExactly(new ProvisioningRequests.PodSet("ppt-wl-check-one-podset-1-ps2", 3));
        assertThat(client.v1().podTemplates().inNamespace(ns).withName("ppt-wl-check-one-podset-1-ps1").get()).isNull();
    }

    @Test
    void workloadWithProvreqAnnotation() {
        String ns = ns("pr-annotation");
        f.config("config-annotation", "{provisioningClassName: class1}");
        f.activeCheck("check-annotation", "config-annotation");
        f.workload(ns, "wl", """
                - {name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
                """, Map.of("provreq.kueue.x-k8s.io/ValidUntilSeconds", "0", "invalid-provreq-prefix/Foo1", "Bar1",
                "another-invalid-provreq-prefix/Foo2", "Bar2"), """
                - {name: main, count: 1}
                """, List.of(Fixtures.pending("check-annotation")), List.of());
        GenericKubernetesResource pr = f.awaitRequest(ns, "wl-check-annotation-1");
        assertThat(ProvisioningRequests.parameters(pr)).containsExactlyEntriesOf(Map.of("ValidUntilSeconds", "0"));
        assertThat(ProvisioningRequests.podSets(pr))
                .containsExactly(new ProvisioningRequests.PodSet("ppt-wl-check-annotation-1-main", 1));
    }

    @Test
    void whenRequestIsProvisionedAndHasNodeSelectorSpecifiedViaProvisioningClassDetail() {
        String ns = ns("pr-class-detail");
        f.config("config-class-detail", "{provisioningClassName: class1, parameters: {p1: v1}, podSetUpdates: "
                + "{nodeSelector: [{key: node-selector-key, valueFromProvisioningClassDetail: node-selector-value}]}}");
        f.activeCheck("check-class-detail", "config-class-detail");
        f.baseWorkload(ns, "check-class-detail");
        f.awaitRequest(ns, "wl-check-class-detail-1");
        f.autoscalerSets(ns, "wl-check-class-detail-1", Map.of("node-selector-value", "nodes-selector-xyz"),
                "Provisioned=True:By test");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-class-detail", c -> c.getState() == CheckState.Ready);
        assertThat(s.getPodSetUpdates()).extracting(PodSetUpdate::getName).containsExactly("ps1", "ps2");
        assertThat(s.getPodSetUpdates()).allSatisfy(u -> {
            assertThat(u.getAnnotations()).containsExactlyInAnyOrderEntriesOf(consume("wl-check-class-detail-1"));
            assertThat(u.getNodeSelector()).containsExactlyEntriesOf(Map.of("node-selector-key", "nodes-selector-xyz"));
        });
    }

    @Test
    void workloadsStatusGetsUpdatedBasedOnTheProvisioningRequest() {
        String ns = ns("pr-eta");
        f.config("config-eta", Fixtures.baseConfig(3));
        f.activeCheck("check-eta", "config-eta");
        f.baseWorkload(ns, "check-eta");
        f.awaitRequest(ns, "wl-check-eta-1");
        f.autoscalerSets(ns, "wl-check-eta-1", Map.of(), "Failed=False:",
                "Provisioned=False:Provisioning Request wasn't provisioned. ETA: 2024-02-22T10:36:40Z", "Accepted=True:");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-eta",
                c -> c.getMessage() != null && c.getMessage().contains("ETA"));
        assertThat(s.getState()).isEqualTo(CheckState.Pending);
        assertThat(s.getMessage()).isEqualTo("Provisioning Request wasn't provisioned. ETA: 2024-02-22T10:36:40Z");
    }

    @Test
    void withPodSetMergePolicyIdenticalPodTemplates() {
        String ns = ns("pr-merge");
        f.config("config-merge", "{provisioningClassName: class1, podSetMergePolicy: IdenticalPodTemplates}");
        f.activeCheck("check-merge", "config-merge");
        f.workload(ns, "wl", """
                - {name: ps1, count: 2, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
                - {name: ps2, count: 2, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
                - {name: ps3, count: 2, template: {spec: {priorityClassName: pc-100, containers: [{name: c, resources: {requests: {memory: 1M}}}]}}}
                - {name: ps4, count: 2, template: {spec: {priorityClassName: pc-100, containers: [{name: c, resources: {requests: {memory: 1M}}}]}}}
                - {name: ps5, count: 1, template: {spec: {priorityClassName: pc-200, containers: [{name: c, resources: {requests: {memory: 1M}}}]}}}
                """, Map.of(), """
                - {name: ps1, flavors: {cpu: flv1}, resourceUsage: {cpu: "1"}, count: 1}
                - {name: ps2, flavors: {cpu: flv1}, resourceUsage: {cpu: "1"}, count: 2}
                - {name: ps3, flavors: {cpu: flv2}, resourceUsage: {memory: 1M}, count: 2}
                - {name: ps4, flavors: {cpu: flv2}, resourceUsage: {memory: 1M}, count: 1}
                - {name: ps5, flavors: {cpu: flv2}, resourceUsage: {memory: 1M}, count: 1}
                """, List.of(Fixtures.pending("check-merge"), Fixtures.pending("not-provisioning")), List.of());
        GenericKubernetesResource pr = f.awaitRequest(ns, "wl-check-merge-1");
        assertThat(ProvisioningRequests.podSets(pr)).containsExactly(
                new ProvisioningRequests.PodSet("ppt-wl-check-merge-1-ps1", 3),
                new ProvisioningRequests.PodSet("ppt-wl-check-merge-1-ps3", 3),
                new ProvisioningRequests.PodSet("ppt-wl-check-merge-1-ps5", 1));
        PodTemplate ps5 = client.v1().podTemplates().inNamespace(ns).withName("ppt-wl-check-merge-1-ps5").get();
        assertThat(ps5.getTemplate().getSpec().getPriorityClassName()).isEqualTo("pc-200");
        assertThat(ps5.getTemplate().getSpec().getNodeSelector()).containsExactlyEntriesOf(Map.of("f2l1", "v1"));
    }

    @Test
    void removeUnnecessaryRequests() {
        String ns = ns("pr-unnecessary");
        f.config("config-unnecessary", Fixtures.baseConfig(3));
        f.activeCheck("check-unnecessary", "config-unnecessary");
        Workload wl = f.baseWorkload(ns, "check-unnecessary");
        ownedRequest(ns, "wl-check2", wl, "{provisioningClassName: class1, podSets: [{podTemplateRef: {name: x}, count: 1}]}");
        f.awaitRequest(ns, "wl-check-unnecessary-1");
        f.awaitNoRequest(ns, "wl-check2");
    }

    @Test
    void requestOutOfSync() {
        String ns = ns("pr-out-of-sync");
        f.config("config-out-of-sync", Fixtures.baseConfig(3));
        f.activeCheck("check-out-of-sync", "config-out-of-sync");
        Workload wl = f.workload(ns, "wl", basePodSets(), Map.of(), baseAssignments(), List.of(), List.of());
        ownedRequest(ns, "wl-check-out-of-sync-1", wl, "{provisioningClassName: class1, parameters: {p1: v0}, "
                + "podSets: [{podTemplateRef: {name: ppt-wl-check-out-of-sync-1-main}, count: 1}]}");
        client.resources(Workload.class).inNamespace(ns).withName("wl").editStatus(w -> {
            w.getStatus().setAdmissionChecks(new java.util.ArrayList<>(List.of(Fixtures.pending("check-out-of-sync"))));
            return w;
        });
        await().atMost(Fixtures.TIMEOUT).until(() -> {
            GenericKubernetesResource pr = f.request(ns, "wl-check-out-of-sync-1");
            return pr != null && "v1".equals(ProvisioningRequests.parameters(pr).get("p1"));
        });
        assertThat(ProvisioningRequests.podSets(f.request(ns, "wl-check-out-of-sync-1"))).hasSize(2);
    }

    private void ownedRequest(String ns, String name, Workload owner, String specYaml) {
        GenericKubernetesResource pr = dev.sluice.controller.Queues.yaml(GenericKubernetesResource.class, """
                apiVersion: autoscaling.x-k8s.io/v1
                kind: ProvisioningRequest
                metadata: {name: %s, namespace: %s}
                spec: %s
                """.formatted(name, ns, specYaml));
        pr.getMetadata().setOwnerReferences(List.of(WorkloadReconciler.controllerOf(owner)));
        client.genericKubernetesResources(ProvisioningRequests.CONTEXT).inNamespace(ns).resource(pr).create();
    }

    @Test
    void whenProvisioningRequestCreationError() {
        String ns = ns("pr-create-refused");
        f.config("config-create-refused", Fixtures.baseConfig(3));
        f.activeCheck("check-create-refused", "config-create-refused");
        String path = "/apis/autoscaling.x-k8s.io/v1/namespaces/" + ns + "/provisioningrequests";
        ApiServerRules.deny("POST", path, 422, "Invalid", "invalid ProvisioningRequest error");
        try {
            f.baseWorkload(ns, "check-create-refused");
            String message = "Error creating ProvisioningRequest \"wl-check-create-refused-1\": invalid ProvisioningRequest error";
            AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-create-refused", c -> message.equals(c.getMessage()));
            assertThat(s.getState()).isEqualTo(CheckState.Pending);
            awaitEvent(ns, "wl", "FailedCreate", message);
            // the templates were made, still controlled by the Workload
            PodTemplate ps1 = client.v1().podTemplates().inNamespace(ns).withName("ppt-wl-check-create-refused-1-ps1")
                    .get();
            assertThat(ps1.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(o -> assertThat(o.getKind()).isEqualTo("Workload"));
        } finally {
            ApiServerRules.allow("POST", path);
        }
        // allowed again: the back-off brings the request
        f.awaitRequest(ns, "wl-check-create-refused-1");
    }

    @Test
    void whenPodTemplateCreationError() {
        String ns = ns("pr-template-refused");
        f.config("config-template-refused", Fixtures.baseConfig(3));
        f.activeCheck("check-template-refused", "config-template-refused");
        String path = "/api/v1/namespaces/" + ns + "/podtemplates";
        ApiServerRules.deny("POST", path, 422, "Invalid", "invalid PodTemplate error");
        try {
            f.baseWorkload(ns, "check-template-refused");
            String message = "Error creating PodTemplate \"ppt-wl-check-template-refused-1-ps1\": invalid PodTemplate error";
            AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-template-refused", c -> message.equals(c.getMessage()));
            assertThat(s.getState()).isEqualTo(CheckState.Pending);
            awaitEvent(ns, "wl", "FailedCreate", message);
            assertThat(f.request(ns, "wl-check-template-refused-1")).isNull();
        } finally {
            ApiServerRules.allow("POST", path);
        }
    }

    @Test
    void whenTheExistingRequestIsAlreadyVisibleInTheCache() {
        String ns = ns("pr-visible");
        f.config("config-visible", Fixtures.baseConfig(3));
        f.activeCheck("check-visible", "config-visible");
        // a request of that name that is not the Workload's (no ownerReference): the create collides with it
        GenericKubernetesResource other = dev.sluice.controller.Queues.yaml(GenericKubernetesResource.class, """
                apiVersion: autoscaling.x-k8s.io/v1
                kind: ProvisioningRequest
                metadata: {name: wl-check-visible-1, namespace: %s}
                spec: {provisioningClassName: class1, podSets: [{podTemplateRef: {name: x}, count: 1}]}
                """.formatted(ns));
        client.genericKubernetesResources(ProvisioningRequests.CONTEXT).inNamespace(ns).resource(other).create();
        f.baseWorkload(ns, "check-visible");
        AdmissionCheckState s = f.awaitCheck(ns, "wl", "check-visible", c -> c.getMessage() != null
                && c.getMessage().startsWith("Error creating ProvisioningRequest \"wl-check-visible-1\": "));
        assertThat(s.getMessage()).contains("already exists");
        assertThat(s.getState()).isEqualTo(CheckState.Pending);
        await().atMost(Fixtures.TIMEOUT).untilAsserted(() -> assertThat(events(ns, "wl"))
                .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("FailedCreate")));
    }

    @Test
    void whenTheRequestIsRemovedWhileTheCheckIsReadyDontCreateTheProvReqAndKeepReadyState() {
        String ns = ns("pr-ready");
        f.config("config-ready", Fixtures.baseConfig(3));
        f.activeCheck("check-ready", "config-ready");
        AdmissionCheckState ready = Fixtures.pending("check-ready");
        ready.setState(CheckState.Ready);
        f.workload(ns, "wl", basePodSets(), Map.of(), baseAssignments(), List.of(ready), List.of());
        afterTheControllerSawIt(ns, "check-ready");
        assertThat(f.request(ns, "wl-check-ready-1")).isNull();
        assertThat(WorkloadReconciler.find(f.read(ns, "wl").getStatus().getAdmissionChecks(), "check-ready").getState())
                .isEqualTo(CheckState.Ready);
    }

    @Test
    void whenTheWorkloadStatusWriteIsRefusedTheServersMessageIsShown() {
        String ns = ns("pr-status-refused");
        f.config("config-status-refused", Fixtures.baseConfig(3));
        f.activeCheck("check-status-refused", "config-status-refused");
        String path = "/apis/kueue.x-k8s.io/v1beta2/namespaces/" + ns + "/workloads/wl/status";
        ApiServerRules.deny("PATCH", path, 403, "Forbidden", "admission webhook \"policy\" denied the request: no");
        try {
            f.baseWorkload(ns, "check-status-refused");
            f.awaitRequest(ns, "wl-check-status-refused-1");
            f.autoscalerSets(ns, "wl-check-status-refused-1", Map.of(), "Provisioned=True:By test");
            await().atMost(Fixtures.TIMEOUT).untilAsserted(() -> assertThat(events(ns, "wl")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("WriteRefused");
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getMessage()).contains("HTTP 403 (Forbidden): admission webhook \"policy\" denied the request: no");
            }));
        } finally {
            ApiServerRules.allow("PATCH", path);
        }
        f.awaitCheck(ns, "wl", "check-status-refused", c -> c.getState() == CheckState.Ready);
    }

    /** A new term (or a restart) rebuilds from the cluster: nothing is made twice, the retry goes on where it was. */
    @Test
    void aRestartRebuildsFromTheClusterAndMakesNothingTwice() throws Exception {
        String ns = ns("pr-restart");
        f.config("config-restart", Fixtures.baseConfig(3));
        f.activeCheck("check-restart", "config-restart");
        f.baseWorkload(ns, "check-restart");
        f.awaitRequest(ns, "wl-check-restart-1");
        controller.restart();
        f.autoscalerSets(ns, "wl-check-restart-1", Map.of(), "Failed=True:By test");
        f.awaitCheck(ns, "wl", "check-restart", c -> c.getState() == CheckState.Retry);
        controller.restart();
        framework(ns, "check-restart", 1);
        f.awaitRequest(ns, "wl-check-restart-2");
        controller.restart();
        f.autoscalerSets(ns, "wl-check-restart-2", Map.of(), "Provisioned=True:");
        f.awaitCheck(ns, "wl", "check-restart", c -> c.getState() == CheckState.Ready);
        assertThat(events(ns, "wl")).filteredOn(e -> "ProvisioningRequestCreated".equals(e.getReason()))
                .extracting(Event::getMessage).containsExactlyInAnyOrder(
                        "Created ProvisioningRequest: \"wl-check-restart-1\"",
                        "Created ProvisioningRequest: \"wl-check-restart-2\"");
        assertThat(f.request(ns, "wl-check-restart-1")).isNull();
        assertThat(f.request(ns, "wl-check-restart-3")).isNull();
    }

    // Kueue's TestReconcileAdmissionCheck (admissioncheck_reconciler_test.go)

    @Test
    void admissionCheckActiveCondition() {
        // unrelated check: not this controller's, so no condition (the next check's, written after, shows it was seen)
        client.resource(dev.sluice.controller.Queues.yaml(dev.sluice.api.v1beta2.AdmissionCheck.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: ac-unrelated}
                spec: {controllerName: other-controller}
                """)).create();
        var none = client.resource(dev.sluice.controller.Queues.yaml(dev.sluice.api.v1beta2.AdmissionCheck.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: ac-no-parameters}
                spec: {controllerName: kueue.x-k8s.io/provisioning-request}
                """)).create();
        assertActive(f.awaitActive("ac-no-parameters", "False"), "BadParametersRef", "missing parameters reference");
        assertThat(client.resources(dev.sluice.api.v1beta2.AdmissionCheck.class).withName("ac-unrelated").get()
                .getStatus()).isNull();
        assertThat(none.getMetadata().getGeneration()).isNotNull();

        f.check("ac-bad-group", "{apiGroup: bad.group, kind: ProvisioningRequestConfig, name: config1}");
        assertActive(f.awaitActive("ac-bad-group", "False"), "BadParametersRef",
                "wrong group \"bad.group\", expecting \"kueue.x-k8s.io\": bad parameters reference");
        f.check("ac-bad-kind", "{apiGroup: kueue.x-k8s.io, kind: BadKind, name: config1}");
        assertActive(f.awaitActive("ac-bad-kind", "False"), "BadParametersRef",
                "wrong kind \"BadKind\", expecting \"ProvisioningRequestConfig\": bad parameters reference");
        f.check("ac-config-missing", "{apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: config-later}");
        assertActive(f.awaitActive("ac-config-missing", "False"), "BadParametersRef",
                "provisioningrequestconfigs.kueue.x-k8s.io \"config-later\" not found");

        // config found: created now, the check becomes Active
        f.config("config-later", "{provisioningClassName: class1}");
        assertActive(f.awaitActive("ac-config-missing", "True"), "Active", "The admission check is active");
    }

    private static void assertActive(dev.sluice.api.v1beta2.AdmissionCheck ac, String reason, String message) {
        var c = dev.sluice.controller.conditions.Conditions.find(ac.getStatus().getConditions(), "Active");
        assertThat(c.getReason()).isEqualTo(reason);
        assertThat(c.getMessage()).isEqualTo(message);
        assertThat(c.getObservedGeneration()).isEqualTo(ac.getMetadata().getGeneration());
        assertThat(c.getLastTransitionTime()).isNotBlank();
    }

    private static String basePodSets() {
        return """
                - {name: ps1, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
                - {name: ps2, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {memory: 1M}}}]}}}
                """;
    }

    private static String baseAssignments() {
        return """
                - {name: ps1, flavors: {cpu: flv1}, resourceUsage: {cpu: "4"}, count: 4}
                - {name: ps2, flavors: {cpu: flv2}, resourceUsage: {cpu: 3M}, count: 3}
                """;
    }
}
