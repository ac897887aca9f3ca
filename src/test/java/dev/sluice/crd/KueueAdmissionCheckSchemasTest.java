package dev.sluice.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sluice's CRDs (the chart's copies, which ChartCrdsIT holds equal to what the build writes) of the admission-check
 * kinds (AdmissionCheck, ProvisioningRequestConfig, MultiKueueConfig, MultiKueueCluster), and the admission-check
 * fields of ClusterQueue and Workload, say what Kueue v0.19.2's say (src/test/resources/kueue-crds/), field by field:
 * names, scope, versions, printer columns, types, required fields, limits, patterns, defaults, enums and CEL rules.
 * Not compared: descriptions (Sluice writes its own), format (int32, date-time), list types and map types (the
 * generator writes none), the order of enum values and of required fields, and the schema of a condition (fabric8's
 * Condition has no limits; controllers write conditions). What the generator cannot write is {@link #KUEUE_ONLY}; where
 * Sluice's schema says more than Kueue's, {@link #SLUICE_ONLY} says why that accepts the same objects.
 */
class KueueAdmissionCheckSchemasTest {

    private static final Set<String> NOT_COMPARED = Set.of("description", "format", "x-kubernetes-list-type",
            "x-kubernetes-list-map-keys", "x-kubernetes-map-type");

    /** Constraints of Kueue's the CRD generator cannot write: limits on the items of a list or map of strings, an object default. */
    private static final Map<String, List<String>> KUEUE_ONLY = Map.of(
            "provisioningrequestconfigs v1beta1 spec", List.of("/properties/parameters/additionalProperties/maxLength",
                    "/properties/retryStrategy/default"),
            "provisioningrequestconfigs v1beta2 spec", List.of("/properties/parameters/additionalProperties/maxLength",
                    "/properties/retryStrategy/default"),
            "multikueueconfigs v1beta2 spec", List.of("/properties/clusters/items/maxLength"),
            "clusterqueues v1beta1 spec.admissionChecks", List.of("/items/maxLength"),
            "clusterqueues v1beta1 spec.admissionChecksStrategy", List.of(
                    "/properties/admissionChecks/items/properties/onFlavors/items/maxLength",
                    "/properties/admissionChecks/items/properties/onFlavors/items/pattern"),
            "clusterqueues v1beta2 spec.admissionChecksStrategy", List.of(
                    "/properties/admissionChecks/items/properties/onFlavors/items/maxLength",
                    "/properties/admissionChecks/items/properties/onFlavors/items/pattern"));

    /**
     * Where Sluice's v1beta1 shares v1beta2's class and so says a little more than Kueue's v1beta1: a minLength 1
     * beside a pattern that already needs one character, and the at most 16 conditions its controller writes.
     */
    private static final Map<String, List<String>> SLUICE_ONLY = Map.of(
            "admissionchecks v1beta1 spec", List.of("/properties/parameters/properties/apiGroup/minLength",
                    "/properties/parameters/properties/kind/minLength", "/properties/parameters/properties/name/minLength"),
            "admissionchecks v1beta1 status", List.of("/properties/conditions/maxItems"),
            "multikueueclusters v1beta1 status", List.of("/properties/conditions/maxItems"),
            "provisioningrequestconfigs v1beta1 spec", List.of("/properties/provisioningClassName/minLength"),
            // v1beta1 Workloads share v1beta2's status: a check's name of at least one character, as every check's name is
            "workloads v1beta1 status.admissionChecks", List.of("/items/properties/name/minLength"));

    @ParameterizedTest
    @CsvSource({ "admissionchecks,v1beta1", "admissionchecks,v1beta2", "provisioningrequestconfigs,v1beta1",
        "provisioningrequestconfigs,v1beta2", "multikueueconfigs,v1beta1", "multikueueconfigs,v1beta2",
        "multikueueclusters,v1beta1", "multikueueclusters,v1beta2" })
    void eachKindIsKueuesInEachVersion(String plural, String version) throws Exception {
        JsonNode kueue = KueueCrds.kueue("kueue.x-k8s.io_" + plural + ".yaml");
        JsonNode sluice = KueueCrds.chart(plural);
        assertThat(sluice.at("/spec/scope").asText()).isEqualTo("Cluster").isEqualTo(kueue.at("/spec/scope").asText());
        for (String name : List.of("kind", "plural", "singular", "shortNames")) {
            assertThat(sluice.at("/spec/names/" + name)).as(name).isEqualTo(kueue.at("/spec/names/" + name));
        }
        assertThat(sluice.at("/spec/versions")).extracting(v -> v.path("name").asText())
                .containsExactlyInAnyOrderElementsOf(names(kueue.at("/spec/versions")));
        JsonNode kueueVersion = KueueCrds.version(kueue, version);
        JsonNode sluiceVersion = KueueCrds.version(sluice, version);
        for (String field : List.of("served", "storage", "deprecated", "deprecationWarning", "subresources")) {
            assertThat(sluiceVersion.path(field)).as(version + " " + field).isEqualTo(kueueVersion.path(field));
        }
        assertThat(columns(sluiceVersion)).as(version + " printer columns").isEqualTo(columns(kueueVersion));
        JsonNode kueueSchema = kueueVersion.at("/schema/openAPIV3Schema/properties");
        JsonNode sluiceSchema = sluiceVersion.at("/schema/openAPIV3Schema/properties");
        // the generator leaves apiVersion, kind and metadata to the API server, which knows them
        assertThat(names(fields(sluiceSchema))).isEqualTo(withStatus(names(fields(kueueSchema))));
        if (!kueueSchema.has("status")) {
            // a kind without status (fabric8's Void) gets an empty status object, which keeps nothing
            assertThat(sluiceSchema.path("status")).hasToString("{\"type\":\"object\"}");
        }
        for (String section : List.of("spec", "status")) {
            if (kueueSchema.has(section)) {
                String key = plural + " " + version + " " + section;
                assertSame(key, sluiceSchema.path(section), kueueSchema.path(section));
            }
        }
        if (kueue.at("/spec/versions/0/schema/openAPIV3Schema/required").isArray()) {
            assertThat(sluiceVersion.at("/schema/openAPIV3Schema/required")).isEqualTo(kueueVersion.at("/schema/openAPIV3Schema/required"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "v1beta1", "v1beta2" })
    void clusterQueueAdmissionCheckFieldsAreKueues(String version) throws Exception {
        JsonNode kueue = KueueCrds.kueue("kueue.x-k8s.io_clusterqueues-admission-check-fields.yaml").path(version);
        JsonNode spec = KueueCrds.version(KueueCrds.chart("clusterqueues"), version).at("/schema/openAPIV3Schema/properties/spec/properties");
        assertThat(kueue.size()).isEqualTo(version.equals("v1beta1") ? 2 : 1);
        assertThat(spec.has("admissionChecks")).as("v1beta1 only").isEqualTo(version.equals("v1beta1"));
        kueue.properties().forEach(field -> assertSame("clusterqueues " + version + " " + field.getKey(),
                spec.path(field.getKey().substring("spec.".length())), field.getValue()));
    }

    @ParameterizedTest
    @ValueSource(strings = { "v1beta1", "v1beta2" })
    void workloadAdmissionCheckStatesAreKueues(String version) throws Exception {
        JsonNode kueue = KueueCrds.kueue("kueue.x-k8s.io_workloads-admission-check-fields.yaml").path(version);
        JsonNode status = KueueCrds.version(KueueCrds.chart("workloads"), version).at("/schema/openAPIV3Schema/properties/status/properties");
        assertThat(kueue.size()).isEqualTo(1);
        assertSame("workloads " + version + " status.admissionChecks", status.path("admissionChecks"),
                kueue.path("status.admissionChecks"));
    }

    private static void assertSame(String key, JsonNode sluice, JsonNode kueue) {
        assertThat(sluice.isMissingNode()).as(key + " in Sluice's CRD").isFalse();
        JsonNode want = normal(kueue);
        JsonNode got = normal(sluice);
        for (String gap : KUEUE_ONLY.getOrDefault(key, List.of())) {
            remove(want, gap, "Kueue's " + key);
        }
        for (String extra : SLUICE_ONLY.getOrDefault(key, List.of())) {
            remove(got, extra, "Sluice's " + key);
        }
        assertThat(got).as(key).isEqualTo(want);
    }

    private static List<String> withStatus(List<String> kueueFields) {
        TreeSet<String> out = new TreeSet<>(kueueFields);
        out.removeAll(Set.of("apiVersion", "kind", "metadata"));
        out.add("status");
        return new ArrayList<>(out);
    }

    private static List<String> columns(JsonNode version) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : version.path("additionalPrinterColumns")) {
            out.add(c.path("name").asText() + "|" + c.path("type").asText() + "|" + c.path("jsonPath").asText() + "|"
                    + c.path("description").asText() + "|" + c.path("priority").asInt(0));
        }
        return out;
    }

    private static List<String> names(JsonNode nodes) {
        List<String> out = new ArrayList<>();
        nodes.forEach(n -> out.add(n.isTextual() ? n.asText() : n.path("name").asText()));
        return out;
    }

    private static ArrayNode fields(JsonNode properties) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        new TreeSet<>(iterable(properties)).forEach(out::add);
        return out;
    }

    private static List<String> iterable(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /**
     * A copy without the keys not compared and without a condition's schema, numbers as decimals (the generator
     * writes minimum 1 as 1.0), enum values and required fields sorted.
     */
    private static JsonNode normal(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            node.properties().forEach(e -> {
                if (NOT_COMPARED.contains(e.getKey())) {
                    return;
                }
                if ((e.getKey().equals("enum") || e.getKey().equals("required")) && e.getValue().isArray()) {
                    ArrayNode sorted = JsonNodeFactory.instance.arrayNode();
                    new TreeSet<>(names(e.getValue())).forEach(sorted::add);
                    out.set(e.getKey(), sorted);
                } else if (e.getKey().equals("conditions")) {
                    ObjectNode list = (ObjectNode) normal(e.getValue());
                    list.remove("items");
                    out.set(e.getKey(), list);
                } else {
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

    private static void remove(JsonNode tree, String pointer, String what) {
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = tree.at(pointer.substring(0, slash));
        assertThat(parent.has(pointer.substring(slash + 1))).as(what + " has " + pointer).isTrue();
        ((ObjectNode) parent).remove(pointer.substring(slash + 1));
    }
}
