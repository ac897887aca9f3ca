package dev.sluice.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The CRDs the build writes to target/kubernetes/ (runs after package, so it reads what ships). */
class GeneratedCrdsIT {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path DIR = Path.of("target", "kubernetes");

    static JsonNode crd(String plural) throws Exception {
        Path file = DIR.resolve(plural + ".kueue.x-k8s.io-v1.yml");
        assertThat(file).exists();
        return YAML.readTree(file.toFile());
    }

    static final String[] PLURALS = { "resourceflavors", "clusterqueues", "localqueues", "workloads",
        "workloadpriorityclasses", "cohorts", "topologies" };

    @ParameterizedTest
    @ValueSource(strings = { "resourceflavors", "clusterqueues", "localqueues", "workloads", "workloadpriorityclasses", "cohorts", "topologies" })
    void everyKindStoresV1beta2AndServesV1beta1DeprecatedWithStructuralSchemas(String plural) throws Exception {
        JsonNode crd = crd(plural);
        assertThat(crd.path("spec").path("group").asText()).isEqualTo("kueue.x-k8s.io");
        assertThat(crd.path("spec").path("versions")).extracting(v -> v.path("name").asText())
                .containsExactlyInAnyOrder("v1beta1", "v1beta2");
        JsonNode v1beta2 = version(plural, "v1beta2");
        assertThat(v1beta2.path("served").asBoolean()).isTrue();
        assertThat(v1beta2.path("storage").asBoolean()).isTrue();
        assertThat(v1beta2.path("deprecated").asBoolean(false)).isFalse();
        JsonNode v1beta1 = version(plural, "v1beta1");
        assertThat(v1beta1.path("served").asBoolean()).isTrue();
        assertThat(v1beta1.path("storage").asBoolean()).isFalse();
        assertThat(v1beta1.path("deprecated").asBoolean()).isTrue();
        assertThat(v1beta1.path("deprecationWarning").asText()).isEqualTo("This version is deprecated. Use v1beta2 instead.");
        for (JsonNode version : List.of(v1beta1, v1beta2)) {
            List<String> problems = new ArrayList<>();
            checkStructural(version.path("schema").path("openAPIV3Schema"), "", problems);
            assertThat(problems).as("non-structural schema nodes in %s", version.path("name")).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "resourceflavors", "clusterqueues", "localqueues", "workloads", "workloadpriorityclasses", "cohorts", "topologies" })
    void everyKindConvertsThroughSluicesWebhookWithCertManagersCa(String plural) throws Exception {
        JsonNode crd = crd(plural);
        JsonNode conversion = crd.path("spec").path("conversion");
        assertThat(conversion.path("strategy").asText()).isEqualTo("Webhook");
        assertThat(conversion.path("webhook").path("conversionReviewVersions")).extracting(JsonNode::asText).containsExactly("v1");
        JsonNode service = conversion.path("webhook").path("clientConfig").path("service");
        assertThat(service.path("name").asText()).isEqualTo("sluice-webhook");
        assertThat(service.path("namespace").asText()).isEqualTo("sluice-system");
        assertThat(service.path("path").asText()).isEqualTo("/convert");
        assertThat(service.path("port").asInt()).isEqualTo(443);
        assertThat(crd.path("metadata").path("annotations").path("cert-manager.io/inject-ca-from").asText())
                .as("the plain install's Certificate").isEqualTo("sluice-system/sluice-webhook");
    }

    @Test
    void printerColumnsAreKueuesInEachVersion() throws Exception {
        for (String version : List.of("v1beta1", "v1beta2")) {
            assertThat(columns("workloads", version)).containsExactly(
                    "Queue=.spec.queueName", "Reserved in=.status.admission.clusterQueue",
                    "Admitted=.status.conditions[?(@.type=='Admitted')].status",
                    "Finished=.status.conditions[?(@.type=='Finished')].status", "Age=.metadata.creationTimestamp");
            assertThat(columns("localqueues", version)).containsExactly("ClusterQueue=.spec.clusterQueue",
                    "Pending Workloads=.status.pendingWorkloads", "Admitted Workloads=.status.admittedWorkloads");
            assertThat(columns("workloadpriorityclasses", version)).containsExactly("Value=.value");
            assertThat(columns("cohorts", version)).isEmpty();
        }
        assertThat(columns("clusterqueues", "v1beta1")).containsExactly("Cohort=.spec.cohort",
                "Strategy=.spec.queueingStrategy", "Pending Workloads=.status.pendingWorkloads",
                "Admitted Workloads=.status.admittedWorkloads");
        assertThat(columns("clusterqueues", "v1beta2")).containsExactly("Cohort=.spec.cohortName",
                "Strategy=.spec.queueingStrategy", "Pending Workloads=.status.pendingWorkloads",
                "Admitted Workloads=.status.admittedWorkloads");
    }

    @Test
    void v1beta2SchemasSpeakV1beta2() throws Exception {
        JsonNode cqSpec = schema("clusterqueues", "v1beta2").path("properties").path("spec").path("properties");
        assertThat(cqSpec.has("cohortName")).isTrue();
        assertThat(cqSpec.has("cohort")).isFalse();
        assertThat(cqSpec.path("flavorFungibility").path("properties").path("whenCanBorrow").path("enum"))
                .extracting(JsonNode::asText).containsExactlyInAnyOrder("MayStopSearch", "TryNextFlavor");
        for (String version : List.of("v1beta1", "v1beta2")) {
            JsonNode fungibility = schema("clusterqueues", version).at("/properties/spec/properties/flavorFungibility");
            assertThat(fungibility.at("/properties/preference/enum")).extracting(JsonNode::asText)
                    .containsExactly("BorrowingOverPreemption", "PreemptionOverBorrowing");
            assertThat(fungibility.at("/properties/whenCanBorrow/default").asText()).isEqualTo("MayStopSearch");
            assertThat(fungibility.at("/x-kubernetes-validations/0/rule").asText()).isEqualTo("!has(self.preference)"
                    + " || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')");
        }
        JsonNode wlSpec = schema("workloads", "v1beta2").path("properties").path("spec").path("properties");
        assertThat(wlSpec.path("priorityClassRef").path("properties").has("group")).isTrue();
        assertThat(wlSpec.has("priorityClassName")).isFalse();
        assertThat(schema("localqueues", "v1beta2").path("properties").path("status").path("properties").has("flavorsUsage")).isTrue();
        JsonNode cohortSpec = schema("cohorts", "v1beta2").path("properties").path("spec").path("properties");
        assertThat(cohortSpec.has("parentName")).isTrue();
        assertThat(cohortSpec.path("resourceGroups").path("maxItems").asInt()).isEqualTo(16);
        assertThat(cohortSpec.path("fairSharing").path("properties").path("weight").path("x-kubernetes-int-or-string").asBoolean()).isTrue();
        assertThat(crd("cohorts").path("spec").path("scope").asText()).isEqualTo("Cluster");
    }

    @Test
    void shortNamesScopeAndStatusSubresources() throws Exception {
        Map<String, String> scopes = Map.of("resourceflavors", "Cluster", "clusterqueues", "Cluster",
                "localqueues", "Namespaced", "workloads", "Namespaced", "workloadpriorityclasses", "Cluster",
                "topologies", "Cluster");
        for (var e : scopes.entrySet()) {
            assertThat(crd(e.getKey()).path("spec").path("scope").asText()).as(e.getKey()).isEqualTo(e.getValue());
        }
        assertThat(crd("clusterqueues").path("spec").path("names").path("shortNames").toString()).contains("cq");
        assertThat(crd("workloads").path("spec").path("names").path("shortNames").toString()).contains("wl");
        assertThat(crd("localqueues").path("spec").path("names").path("shortNames").toString()).contains("lq");
        assertThat(crd("resourceflavors").path("spec").path("names").path("shortNames").toString()).contains("rf");
        assertThat(crd("topologies").path("spec").path("names").path("shortNames").toString()).contains("topo");
        for (String plural : List.of("clusterqueues", "localqueues", "workloads", "cohorts")) {
            for (String version : List.of("v1beta1", "v1beta2")) {
                assertThat(version(plural, version).path("subresources").has("status")).as(plural + " " + version).isTrue();
            }
        }
    }

    @Test
    void schemasCarryKueuesValidation() throws Exception {
        JsonNode cqSpec = schema("clusterqueues").path("properties").path("spec").path("properties");
        assertThat(cqSpec.path("queueingStrategy").path("enum")).extracting(JsonNode::asText).containsExactlyInAnyOrder("StrictFIFO", "BestEffortFIFO");
        assertThat(cqSpec.path("queueingStrategy").path("default").asText()).isEqualTo("BestEffortFIFO");
        assertThat(cqSpec.path("resourceGroups").path("maxItems").asInt()).isEqualTo(16);
        JsonNode withinCq = cqSpec.path("preemption").path("properties").path("withinClusterQueue");
        assertThat(withinCq.path("enum")).extracting(JsonNode::asText).containsExactlyInAnyOrder("Never", "LowerPriority", "LowerOrNewerEqualPriority");
        JsonNode quota = cqSpec.path("resourceGroups").path("items").path("properties").path("flavors").path("items")
                .path("properties").path("resources").path("items");
        assertThat(quota.path("required").toString()).contains("name", "nominalQuota");
        assertThat(quota.path("properties").path("nominalQuota").path("x-kubernetes-int-or-string").asBoolean()).isTrue();

        JsonNode podSets = schema("workloads").path("properties").path("spec").path("properties").path("podSets");
        assertThat(podSets.path("minItems").asInt()).isEqualTo(1);
        assertThat(podSets.path("maxItems").asInt()).isEqualTo(8);
        assertThat(podSets.path("items").path("properties").path("count").path("minimum").asInt()).isEqualTo(0);
        assertThat(podSets.path("items").path("required").toString()).contains("template");
        assertThat(schema("workloadpriorityclasses").path("required").toString()).contains("value");
    }

    static JsonNode version(String plural, String name) throws Exception {
        for (JsonNode v : crd(plural).path("spec").path("versions")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new AssertionError(plural + " has no version " + name);
    }

    private static JsonNode schema(String plural) throws Exception {
        return schema(plural, "v1beta1");
    }

    private static JsonNode schema(String plural, String version) throws Exception {
        return version(plural, version).path("schema").path("openAPIV3Schema");
    }

    private static List<String> columns(String plural, String version) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode c : version(plural, version).path("additionalPrinterColumns")) {
            out.add(c.path("name").asText() + "=" + c.path("jsonPath").asText());
        }
        return out;
    }

    /** Kubernetes' structural-schema rule: every node states a type, unless int-or-string or preserving unknown fields. */
    private static void checkStructural(JsonNode node, String path, List<String> problems) {
        boolean intOrString = node.path("x-kubernetes-int-or-string").asBoolean(false);
        boolean preserve = node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        if (!node.hasNonNull("type") && !intOrString && !preserve) {
            problems.add(path + ": no type");
        }
        if (node.has("anyOf") && !intOrString) {
            problems.add(path + ": anyOf without x-kubernetes-int-or-string");
        }
        node.path("properties").fields().forEachRemaining(f -> checkStructural(f.getValue(), path + "/" + f.getKey(), problems));
        if (node.has("items")) {
            checkStructural(node.get("items"), path + "[]", problems);
        }
        if (node.path("additionalProperties").isObject()) {
            checkStructural(node.get("additionalProperties"), path + "{}", problems);
        }
    }
}
