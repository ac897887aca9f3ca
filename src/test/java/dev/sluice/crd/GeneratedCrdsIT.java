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

    @ParameterizedTest
    @ValueSource(strings = { "resourceflavors", "clusterqueues", "localqueues", "workloads", "workloadpriorityclasses" })
    void everyKindHasAStructuralV1beta1Schema(String plural) throws Exception {
        JsonNode crd = crd(plural);
        assertThat(crd.path("spec").path("group").asText()).isEqualTo("kueue.x-k8s.io");
        JsonNode version = crd.path("spec").path("versions").get(0);
        assertThat(version.path("name").asText()).isEqualTo("v1beta1");
        assertThat(version.path("served").asBoolean()).isTrue();
        assertThat(version.path("storage").asBoolean()).isTrue();
        List<String> problems = new ArrayList<>();
        checkStructural(version.path("schema").path("openAPIV3Schema"), "", problems);
        assertThat(problems).as("non-structural schema nodes").isEmpty();
    }

    @Test
    void printerColumnsAreKueues() throws Exception {
        assertThat(columns("workloads")).containsExactly(
                "Queue=.spec.queueName", "Reserved in=.status.admission.clusterQueue",
                "Admitted=.status.conditions[?(@.type=='Admitted')].status",
                "Finished=.status.conditions[?(@.type=='Finished')].status", "Age=.metadata.creationTimestamp");
        assertThat(columns("clusterqueues")).containsExactly("Cohort=.spec.cohort",
                "Strategy=.spec.queueingStrategy", "Pending Workloads=.status.pendingWorkloads",
                "Admitted Workloads=.status.admittedWorkloads");
        assertThat(columns("localqueues")).containsExactly("ClusterQueue=.spec.clusterQueue",
                "Pending Workloads=.status.pendingWorkloads", "Admitted Workloads=.status.admittedWorkloads");
        assertThat(columns("workloadpriorityclasses")).containsExactly("Value=.value");
    }

    @Test
    void shortNamesScopeAndStatusSubresources() throws Exception {
        Map<String, String> scopes = Map.of("resourceflavors", "Cluster", "clusterqueues", "Cluster",
                "localqueues", "Namespaced", "workloads", "Namespaced", "workloadpriorityclasses", "Cluster");
        for (var e : scopes.entrySet()) {
            assertThat(crd(e.getKey()).path("spec").path("scope").asText()).as(e.getKey()).isEqualTo(e.getValue());
        }
        assertThat(crd("clusterqueues").path("spec").path("names").path("shortNames").toString()).contains("cq");
        assertThat(crd("workloads").path("spec").path("names").path("shortNames").toString()).contains("wl");
        assertThat(crd("localqueues").path("spec").path("names").path("shortNames").toString()).contains("lq");
        assertThat(crd("resourceflavors").path("spec").path("names").path("shortNames").toString()).contains("rf");
        for (String plural : List.of("clusterqueues", "localqueues", "workloads")) {
            assertThat(crd(plural).path("spec").path("versions").get(0).path("subresources").has("status"))
                    .as(plural).isTrue();
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

    private static JsonNode schema(String plural) throws Exception {
        return crd(plural).path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
    }

    private static List<String> columns(String plural) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode c : crd(plural).path("spec").path("versions").get(0).path("additionalPrinterColumns")) {
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
