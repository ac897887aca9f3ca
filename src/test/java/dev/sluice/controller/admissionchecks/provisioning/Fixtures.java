package dev.sluice.controller.admissionchecks.provisioning;

import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.Cluster;
import dev.sluice.controller.Queues;
import dev.sluice.controller.conditions.Conditions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The objects of Kueue's provisioning controller tests ({@code controller_test.go}: baseWorkload, baseFlavor1/2,
 * baseConfig, baseCheck), written to the test API server, and the cluster autoscaler's part: conditions on a
 * ProvisioningRequest's status.
 */
final class Fixtures {

    static final Duration TIMEOUT = Cluster.TIMEOUT;

    final KubernetesClient client;

    Fixtures(KubernetesClient client) {
        this.client = client;
    }

    /** The autoscaler's CRD, from src/test/resources/crds/ (its README says where it comes from). */
    void installProvisioningRequestCrd() {
        var crds = client.apiextensions().v1().customResourceDefinitions();
        if (crds.withName("provisioningrequests.autoscaling.x-k8s.io").get() != null) {
            return;
        }
        try (InputStream in = getClass().getResourceAsStream("/crds/autoscaling.x-k8s.io_provisioningrequests.yaml")) {
            crds.resource(Serialization.unmarshal(in, CustomResourceDefinition.class)).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kueue's baseFlavor1 (f1l1=v1, a NoSchedule toleration) and baseFlavor2 (f2l1=v1). */
    void flavors() {
        if (client.resources(ResourceFlavor.class).withName("flv1").get() == null) {
            client.resource(Queues.yaml(ResourceFlavor.class, """
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: ResourceFlavor
                    metadata: {name: flv1}
                    spec:
                      nodeLabels: {f1l1: v1}
                      tolerations: [{key: f1t1k, value: f1t1v, operator: Equal, effect: NoSchedule}]
                    """)).create();
            client.resource(Queues.yaml(ResourceFlavor.class, """
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: ResourceFlavor
                    metadata: {name: flv2}
                    spec:
                      nodeLabels: {f2l1: v1}
                    """)).create();
        }
    }

    /** A ProvisioningRequestConfig; {@code specYaml} is its spec in YAML flow style. */
    void config(String name, String specYaml) {
        client.resource(Queues.yaml(ProvisioningRequestConfig.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ProvisioningRequestConfig
                metadata: {name: %s}
                spec: %s
                """.formatted(name, specYaml))).create();
    }

    /** Kueue's baseConfigWithRetryStrategy: class1, p1=v1, retries 3 / 60 s / 1800 s (the limit as given). */
    static String baseConfig(int retryLimit) {
        return "{provisioningClassName: class1, parameters: {p1: v1}, retryStrategy: {backoffLimitCount: " + retryLimit
                + ", backoffBaseSeconds: 60, backoffMaxSeconds: 1800}}";
    }

    AdmissionCheck check(String name, String parametersYaml) {
        return client.resource(Queues.yaml(AdmissionCheck.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: %s}
                spec:
                  controllerName: kueue.x-k8s.io/provisioning-request
                  parameters: %s
                """.formatted(name, parametersYaml))).create();
    }

    /** A check of this controller on {@code config}, once it is Active (so the controller's caches hold both). */
    void activeCheck(String name, String config) {
        check(name, "{apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: " + config + "}");
        awaitActive(name, "True");
    }

    AdmissionCheck awaitActive(String name, String status) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50))
                .until(() -> client.resources(AdmissionCheck.class).withName(name).get(), ac -> ac != null
                        && ac.getStatus() != null && Conditions.find(ac.getStatus().getConditions(), "Active") != null
                        && status.equals(Conditions.find(ac.getStatus().getConditions(), "Active").getStatus()));
    }

    /**
     * Kueue's baseWorkload: pod sets ps1 (4 pods, 1 cpu) and ps2 (4 pods, 1M memory), quota reserved in q1 with ps1
     * on flv1 (4 pods) and ps2 on flv2 (3 pods), and the checks {@code check} and not-provisioning Pending.
     */
    Workload baseWorkload(String ns, String check) {
        return workload(ns, "wl", """
                - {name: ps1, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
                - {name: ps2, count: 4, template: {spec: {containers: [{name: c, resources: {requests: {memory: 1M}}}]}}}
                """, Map.of(), """
                - {name: ps1, flavors: {cpu: flv1}, resourceUsage: {cpu: "4"}, count: 4}
                - {name: ps2, flavors: {cpu: flv2}, resourceUsage: {cpu: 3M}, count: 3}
                """, List.of(pending(check), pending("not-provisioning")), List.of());
    }

    static AdmissionCheckState pending(String check) {
        AdmissionCheckState s = new AdmissionCheckState();
        s.setName(check);
        s.setState(dev.sluice.api.v1beta2.CheckState.Pending);
        s.setMessage("");
        s.setLastTransitionTime("2026-12-02T10:00:00Z");
        return s;
    }

    /**
     * A Workload as the framework leaves it for a check controller: created (no queue name: Sluice's own queueing
     * leaves it alone), then its status written with QuotaReserved, the admission and the checks, and any more
     * conditions given as "Type" (status True).
     */
    Workload workload(String ns, String name, String podSetsYaml, Map<String, String> annotations,
            String assignmentsYaml, List<AdmissionCheckState> checks, List<String> moreTrueConditions) {
        Workload wl = Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: %s, namespace: %s}
                spec:
                  podSets:
                %s
                """.formatted(name, ns, podSetsYaml.indent(2)));
        if (!annotations.isEmpty()) {
            wl.getMetadata().setAnnotations(new LinkedHashMap<>(annotations));
        }
        Workload created = client.resource(wl).create();
        Workload status = Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: %s, namespace: %s}
                status:
                  conditions:
                  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: "Quota reserved in ClusterQueue q1", lastTransitionTime: "2026-12-02T10:00:00Z"}
                  admission:
                    clusterQueue: q1
                    podSetAssignments:
                %s
                """.formatted(name, ns, assignmentsYaml.indent(4)));
        created.setStatus(status.getStatus());
        created.getStatus().setAdmissionChecks(new ArrayList<>(checks));
        for (String type : moreTrueConditions) {
            created.getStatus().setConditions(Conditions.set(created.getStatus().getConditions(), type, true, "ByTest",
                    "by test", null, java.time.Instant.parse("2026-12-02T10:00:00Z")));
        }
        return client.resource(created).updateStatus();
    }

    Workload read(String ns, String name) {
        return client.resources(Workload.class).inNamespace(ns).withName(name).get();
    }

    AdmissionCheckState awaitCheck(String ns, String wl, String check, Predicate<AdmissionCheckState> condition) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            Workload w = read(ns, wl);
            return w == null ? null : WorkloadReconciler.find(WorkloadReconciler.checks(w), check);
        }, s -> s != null && condition.test(s));
    }

    GenericKubernetesResource request(String ns, String name) {
        return client.genericKubernetesResources(ProvisioningRequests.CONTEXT).inNamespace(ns).withName(name).get();
    }

    GenericKubernetesResource awaitRequest(String ns, String name) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> request(ns, name),
                java.util.Objects::nonNull);
    }

    void awaitNoRequest(String ns, String name) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> request(ns, name) == null);
    }

    /** What the cluster autoscaler writes: the request's status conditions (each "Type=Status:message"). */
    GenericKubernetesResource autoscalerSets(String ns, String name, Map<String, String> details, String... conditions) {
        GenericKubernetesResource pr = request(ns, name);
        List<Map<String, Object>> list = new ArrayList<>();
        for (String c : conditions) {
            String[] typeRest = c.split("=", 2);
            String[] statusMessage = typeRest[1].split(":", 2);
            Map<String, Object> cond = new LinkedHashMap<>();
            cond.put("type", typeRest[0]);
            cond.put("status", statusMessage[0]);
            cond.put("reason", typeRest[0]);
            cond.put("message", statusMessage.length > 1 ? statusMessage[1] : "");
            cond.put("lastTransitionTime", "2026-12-02T10:00:00Z");
            list.add(cond);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", list);
        if (!details.isEmpty()) {
            status.put("provisioningClassDetails", details);
        }
        pr.setAdditionalProperty("status", status);
        return client.genericKubernetesResources(ProvisioningRequests.CONTEXT).inNamespace(ns).resource(pr)
                .updateStatus();
    }
}
