package dev.sluice.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sluice's CRDs (the chart's copies, which ChartCrdsIT holds equal to what the build writes) say for the
 * topology-aware scheduling fields what Kueue v0.19.2's say (src/test/resources/kueue-crds/), field by field:
 * types, required fields, limits, patterns, enums and CEL rules. Left out on both sides: descriptions (Sluice writes
 * its own), and what fabric8's CRD generator cannot write: format (int32), x-kubernetes-list-type (atomic), limits
 * on the items of a list of strings or integers, and maxLength beside an enum; those are {@link #GENERATOR_GAPS}.
 */
class KueueTopologySchemasTest {

    private static final Set<String> NOT_COMPARED = Set.of("description", "format", "x-kubernetes-list-type",
            "x-kubernetes-map-type");
    /** Paths (in a Kueue v1beta2 subtree, after normalising) of constraints the generator cannot write; v1beta1 has none. */
    private static final Map<String, List<String>> GENERATOR_GAPS = Map.of(
            "v1beta2 status.admission.podSetAssignments[].topologyAssignment", List.of(
                    "/properties/levels/items/maxLength",
                    "/properties/slices/items/properties/podCounts/properties/individual/items/minimum",
                    "/properties/slices/items/properties/valuesPerLevel/items/properties/individual/properties/roots/items/maxLength"),
            "v1beta2 status.admission.podSetAssignments[].delayedTopologyRequest", List.of("/maxLength"));

    @ParameterizedTest
    @ValueSource(strings = { "v1beta1", "v1beta2" })
    void topologyIsKueuesInEachVersion(String version) throws Exception {
        JsonNode kueue = KueueCrds.kueue("kueue.x-k8s.io_topologies.yaml");
        JsonNode sluice = KueueCrds.chart("topologies");
        assertThat(sluice.at("/spec/scope").asText()).isEqualTo("Cluster");
        for (String name : List.of("kind", "plural", "singular", "shortNames")) {
            assertThat(sluice.at("/spec/names/" + name)).as(name).isEqualTo(kueue.at("/spec/names/" + name));
        }
        JsonNode kueueVersion = KueueCrds.version(kueue, version);
        JsonNode sluiceVersion = KueueCrds.version(sluice, version);
        for (String field : List.of("served", "storage", "deprecated", "deprecationWarning", "additionalPrinterColumns",
                "subresources")) {
            assertThat(sluiceVersion.path(field)).as(version + " " + field).isEqualTo(kueueVersion.path(field));
        }
        assertThat(normal(sluiceVersion.at("/schema/openAPIV3Schema/properties/spec")))
                .isEqualTo(normal(kueueVersion.at("/schema/openAPIV3Schema/properties/spec")));
    }

    @ParameterizedTest
    @ValueSource(strings = { "v1beta1", "v1beta2" })
    void resourceFlavorsTopologyNameAndItsRulesAreKueues(String version) throws Exception {
        JsonNode kueue = KueueCrds.version(KueueCrds.kueue("kueue.x-k8s.io_resourceflavors.yaml"), version).at("/schema/openAPIV3Schema/properties/spec");
        JsonNode sluice = KueueCrds.version(KueueCrds.chart("resourceflavors"), version).at("/schema/openAPIV3Schema/properties/spec");
        assertThat(normal(sluice.at("/properties/topologyName"))).isEqualTo(normal(kueue.at("/properties/topologyName")));
        assertThat(normal(sluice.path("x-kubernetes-validations"))).isEqualTo(normal(kueue.path("x-kubernetes-validations")));
    }

    @ParameterizedTest
    @ValueSource(strings = { "v1beta1", "v1beta2" })
    void workloadTopologyFieldsAreKueues(String version) throws Exception {
        JsonNode kueue = KueueCrds.kueue("kueue.x-k8s.io_workloads-tas-fields.yaml").path(version);
        JsonNode schema = KueueCrds.version(KueueCrds.chart("workloads"), version).at("/schema/openAPIV3Schema/properties");
        Map<String, JsonNode> sluice = Map.of(
                "spec.podSets[].topologyRequest", schema.at("/spec/properties/podSets/items/properties/topologyRequest"),
                "status.admission.podSetAssignments[].topologyAssignment",
                schema.at("/status/properties/admission/properties/podSetAssignments/items/properties/topologyAssignment"),
                "status.admission.podSetAssignments[].delayedTopologyRequest",
                schema.at("/status/properties/admission/properties/podSetAssignments/items/properties/delayedTopologyRequest"));
        assertThat(kueue.size()).isEqualTo(sluice.size());
        for (var field : sluice.entrySet()) {
            assertThat(field.getValue().isMissingNode()).as(version + " " + field.getKey()).isFalse();
            JsonNode want = normal(kueue.path(field.getKey()));
            for (String gap : GENERATOR_GAPS.getOrDefault(version + " " + field.getKey(), List.of())) {
                remove(want, gap);
            }
            assertThat(normal(field.getValue())).as(version + " " + field.getKey()).isEqualTo(want);
        }
    }

    /** A copy without the keys not compared, numbers as decimals (the generator writes minimum 1 as 1.0). */
    private static JsonNode normal(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            node.properties().forEach(e -> {
                if (!NOT_COMPARED.contains(e.getKey())) {
                    out.set(e.getKey(), normal(e.getValue()));
                }
            });
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(n -> out.add(normal(n)));
            return out;
        }
        if (node.isNumber()) {
            return JsonNodeFactory.instance.numberNode(node.decimalValue().stripTrailingZeros());
        }
        return node;
    }

    private static void remove(JsonNode tree, String pointer) {
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = tree.at(pointer.substring(0, slash));
        assertThat(parent.has(pointer.substring(slash + 1))).as("Kueue's schema has " + pointer).isTrue();
        ((ObjectNode) parent).remove(pointer.substring(slash + 1));
    }
}
