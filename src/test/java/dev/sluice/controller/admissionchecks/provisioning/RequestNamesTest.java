package dev.sluice.controller.admissionchecks.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.controller.Queues;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Names of requests and templates, and which request of a check is the active one (Kueue's TestActiveOrLastPRForChecks). */
class RequestNamesTest {

    @Test
    void namesAsKueueGivesThem() {
        assertThat(RequestNames.request("wl", "check1", 1)).isEqualTo("wl-check1-1");
        assertThat(RequestNames.podTemplate("wl-check1-1", "ps1")).isEqualTo("ppt-wl-check1-1-ps1");
        assertThat(RequestNames.attempt("wl-check1-12", "wl", "check1")).isEqualTo(12);
        assertThat(RequestNames.matches("wl-check1-2", "wl", "check1")).isTrue();
        assertThat(RequestNames.matches("wl-check2", "wl", "check1")).isFalse();
        assertThat(RequestNames.matches("wl-check1-x", "wl", "check1")).isFalse();
    }

    @Test
    void aLongNameIsCutAndEndsInItsHash() {
        String wl = "w".repeat(240);
        String name = RequestNames.request(wl, "check1", 1);
        assertThat(name).hasSize(253);
        assertThat(name).startsWith(wl).matches(".*-[0-9a-f]{5}$");
        assertThat(RequestNames.request(wl, "check1", 2)).isNotEqualTo(name);
    }

    private static GenericKubernetesResource request(String name, String conditionsYaml) {
        return Queues.yaml(GenericKubernetesResource.class, """
                apiVersion: autoscaling.x-k8s.io/v1
                kind: ProvisioningRequest
                metadata:
                  name: %s
                  namespace: ns
                  ownerReferences: [{apiVersion: kueue.x-k8s.io/v1beta2, kind: Workload, name: wl, uid: u}]
                spec:
                  provisioningClassName: class1
                  parameters: {p1: v1}
                  podSets: [{podTemplateRef: {name: ppt-wl-check-1-ps1}, count: 4}]
                status: {conditions: %s}
                """.formatted(name, conditionsYaml));
    }

    private static Map<String, GenericKubernetesResource> activeOrLast(List<GenericKubernetesResource> requests) {
        Map<String, ProvisioningRequestConfig> checkConfig = new LinkedHashMap<>();
        checkConfig.put("check", Queues.yaml(ProvisioningRequestConfig.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ProvisioningRequestConfig
                metadata: {name: config1}
                spec: {provisioningClassName: class1, parameters: {p1: v1}}
                """));
        return WorkloadReconciler.activeOrLastRequests(PodSetsTest.workload(new int[] {4}, new Integer[] {4}),
                checkConfig, requests);
    }

    private static final GenericKubernetesResource PR1_FAILED = request("wl-check-1",
            "[{type: Failed, status: \"True\", message: By test}]");
    private static final GenericKubernetesResource PR2_CREATED = request("wl-check-2", "[]");

    @Test
    void noProvisioningRequests() {
        assertThat(activeOrLast(List.of())).isEmpty();
    }

    @Test
    void twoProvisioningRequests1Then2() {
        assertThat(activeOrLast(List.of(PR1_FAILED, PR2_CREATED))).containsExactly(Map.entry("check", PR2_CREATED));
    }

    @Test
    void twoProvisioningRequests2Then1() {
        assertThat(activeOrLast(List.of(PR2_CREATED, PR1_FAILED))).containsExactly(Map.entry("check", PR2_CREATED));
    }

    @Test
    void aRequestOutOfSyncWithItsConfigIsNotActive() {
        GenericKubernetesResource old = request("wl-check-3", "[]");
        ProvisioningRequests.spec(old).put("parameters", Map.of("p1", "v0"));
        assertThat(activeOrLast(List.of(PR1_FAILED, old))).containsExactly(Map.entry("check", PR1_FAILED));
    }

    // Kueue's TestIndexAdmissionChecks: which references name a ProvisioningRequestConfig

    @Test
    void badReferencesNameNoConfig() {
        var ref = new dev.sluice.api.v1beta2.AdmissionCheckParametersReference();
        ref.setApiGroup("core");
        ref.setKind("ProvisioningRequestConfig");
        ref.setName("config1");
        assertThat(ParametersRef.problem(ref)).isEqualTo(
                "wrong group \"core\", expecting \"kueue.x-k8s.io\": bad parameters reference");
        ref.setApiGroup("kueue.x-k8s.io");
        ref.setKind("kind");
        assertThat(ParametersRef.problem(ref)).isEqualTo(
                "wrong kind \"kind\", expecting \"ProvisioningRequestConfig\": bad parameters reference");
        ref.setKind("ProvisioningRequestConfig");
        ref.setName("");
        assertThat(ParametersRef.problem(ref)).isEqualTo("empty name: bad parameters reference");
        ref.setName("config1");
        assertThat(ParametersRef.problem(ref)).isNull();
        assertThat(ParametersRef.problem(null)).isEqualTo("missing parameters reference");
    }
}
