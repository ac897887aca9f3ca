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
}
