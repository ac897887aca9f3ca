package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Topology and a ResourceFlavor's topologyName through the queue-object rules: Kueue v0.19.2's integration cases
 * (test/integration/singlecluster/tas/tas_test.go, "Validate Topology on creation/update" and the ResourceFlavor
 * topologyName cases) by name, with the messages of Kueue's CRD rules.
 */
class TopologyQueueObjectRulesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String BLOCK = "cloud.google.com/gce-topology-block";
    private static final String RACK = "cloud.google.com/gce-topology-host";
    private static final String HOST = "kubernetes.io/hostname";

    private static JsonNode topology(String... levels) {
        ObjectNode t = YAML.createObjectNode().put("apiVersion", "kueue.x-k8s.io/v1beta2").put("kind", "Topology");
        t.putObject("metadata").put("name", "default");
        var list = t.putObject("spec").putArray("levels");
        for (String l : levels) {
            list.addObject().put("nodeLabel", l);
        }
        return t;
    }

    private static List<String> errors(String kind, JsonNode object, JsonNode old) {
        return QueueObjectValidation.errors(kind, object, old).all();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "valid Topology|" + HOST + "|",
        "no levels||spec.levels: Invalid value: 0: spec.levels in body should have at least 1 items",
        "invalid levels|@invalid|spec.levels[0].nodeLabel: Invalid value: \"@invalid\": spec.levels[0].nodeLabel in body"
                + " should match '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$'",
        "non-unique levels|" + BLOCK + "," + BLOCK + "|spec.levels: Invalid value: \"array\": must be unique",
        "kubernetes.io/hostname first|" + HOST + "," + BLOCK + "," + RACK + "|spec.levels: Invalid value: \"array\": the"
                + " kubernetes.io/hostname label can only be used at the lowest level of topology",
        "kubernetes.io/hostname middle|" + BLOCK + "," + HOST + "," + RACK + "|spec.levels: Invalid value: \"array\": the"
                + " kubernetes.io/hostname label can only be used at the lowest level of topology",
        "kubernetes.io/hostname last|" + BLOCK + "," + RACK + "," + HOST + "|" })
    void validateTopologyOnCreation(String name, String levels, String error) {
        JsonNode t = topology(levels == null ? new String[0] : levels.split(","));
        assertThat(errors("Topology", t, null)).containsExactlyElementsOf(error == null ? List.of() : List.of(error));
    }

    @Test
    void validateTopologyOnUpdate() {
        JsonNode stored = topology(BLOCK, RACK, HOST);
        // succeed to update topology
        ObjectNode labelled = stored.deepCopy();
        ((ObjectNode) labelled.get("metadata")).putObject("labels").put("alpha", "beta");
        assertThat(errors("Topology", labelled, stored)).isEmpty();
        String immutable = "spec.levels: Invalid value: \"array\": field is immutable";
        // updating levels is prohibited
        assertThat(errors("Topology", topology(BLOCK, RACK, HOST, "added"), stored)).contains(immutable);
        // updating levels order is prohibited
        assertThat(errors("Topology", topology(RACK, BLOCK, HOST), stored)).containsExactly(immutable);
    }

    private static JsonNode flavor(String spec) throws Exception {
        return YAML.readTree("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: tas-flavor}
                spec: %s
                """.formatted(spec));
    }

    @Test
    void resourceFlavorsTopologyName() throws Exception {
        // should not allow to create ResourceFlavor with invalid topology name
        assertThat(errors("ResourceFlavor", flavor("{nodeLabels: {node-group: tas}, topologyName: invalid topology name}"), null))
                .containsExactly("spec.topologyName: Invalid value: \"invalid topology name\": spec.topologyName in body"
                        + " should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'");
        // should not allow to create ResourceFlavor without any node labels
        assertThat(errors("ResourceFlavor", flavor("{topologyName: default}"), null))
                .containsExactly("spec: Invalid value: \"object\": at least one nodeLabel is required when topology is set");

        JsonNode stored = flavor("{topologyName: default, nodeLabels: {node-group: tas, foo: bar}}");
        assertThat(errors("ResourceFlavor", stored, null)).isEmpty();
        // should not allow to update topologyName
        assertThat(errors("ResourceFlavor", flavor("{topologyName: invalid, nodeLabels: {node-group: tas, foo: bar}}"), stored))
                .containsExactly("spec: Invalid value: \"object\": topologyName is immutable when topologyName is set");
        // should allow to update nodeTaints
        assertThat(errors("ResourceFlavor", flavor("{topologyName: default, nodeLabels: {node-group: tas, foo: bar},"
                + " nodeTaints: [{key: t, value: v, effect: NoSchedule}]}"), stored)).isEmpty();
        // should not allow to update tolerations
        assertThat(errors("ResourceFlavor", flavor("{topologyName: default, nodeLabels: {node-group: tas, foo: bar},"
                + " tolerations: [{key: key1, value: value, effect: NoSchedule, operator: Equal}]}"), stored))
                .containsExactly("spec: Invalid value: \"object\": tolerations are immutable when topologyName is set");
        // should not allow to update nodeLabels
        assertThat(errors("ResourceFlavor", flavor("{topologyName: default, nodeLabels: {node-group: tas, foo: baz}}"), stored))
                .containsExactly("spec: Invalid value: \"object\": nodeLabels are immutable when topologyName is set");
        // should not allow to delete one of the nodeLabels
        assertThat(errors("ResourceFlavor", flavor("{topologyName: default, nodeLabels: {node-group: tas}}"), stored))
                .containsExactly("spec: Invalid value: \"object\": nodeLabels are immutable when topologyName is set");
    }
}
