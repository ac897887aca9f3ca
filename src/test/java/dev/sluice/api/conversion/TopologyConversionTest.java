package dev.sluice.api.conversion;

import static dev.sluice.api.conversion.KueueConversionTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The topology fields between v1beta1 and v1beta2: Kueue v0.19.2's workload_conversion_test.go cases with a topology
 * assignment, by name (TestWorkloadConvertFrom, TestWorkloadConversion_RoundTrip, TestWorkloadConvertTo), and the
 * topology request, Topology and ResourceFlavor.topologyName, which read the same in both versions.
 */
class TopologyConversionTest {

    private static final String ASSIGNMENT = "/status/admission/podSetAssignments/0/topologyAssignment";

    private static ObjectNode v1beta2Assignment(String topologyAssignment) throws Exception {
        return yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: default}
                status:
                  admission:
                    clusterQueue: cq
                    podSetAssignments:
                    - name: main
                      topologyAssignment:
                """ + topologyAssignment.indent(8));
    }

    private static ObjectNode v1beta1Assignment(String topologyAssignment) throws Exception {
        return yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: wl, namespace: default}
                status:
                  admission:
                    clusterQueue: cq
                    podSetAssignments:
                    - name: main
                      topologyAssignment:
                """ + topologyAssignment.indent(8));
    }

    private static final String DOMAINS = """
            levels: [a, b]
            domains:
            - {values: [a1, b1], count: 10}
            - {values: [a1, b2], count: 20}
            """;

    @Test
    void convertFromWithTopologyAssignment() throws Exception {
        ObjectNode v2 = v1beta2Assignment("""
                levels: [a, b]
                slices:
                - domainCount: 2
                  valuesPerLevel:
                  - universal: a1
                  - individual: {prefix: b, roots: ["1", "2"]}
                  podCounts: {individual: [10, 20]}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        assertThat(v1.at(ASSIGNMENT)).isEqualTo(yaml(DOMAINS));
        assertThat(KueueConversion.convert(v1, KueueConversion.V1BETA2)).as("back up: the same slices").isEqualTo(v2);
    }

    @Test
    void convertFromWithTopologyAssignmentMultipleSlices() throws Exception {
        ObjectNode v2 = v1beta2Assignment("""
                levels: [a, b]
                slices:
                - domainCount: 2
                  valuesPerLevel:
                  - universal: a1
                  - individual: {prefix: b, roots: ["1", "2"]}
                  podCounts: {individual: [10, 20]}
                - domainCount: 2
                  valuesPerLevel:
                  - universal: a2
                  - individual: {roots: [first, second], suffix: -in-a2}
                  podCounts: {universal: 50}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        assertThat(v1.at(ASSIGNMENT)).isEqualTo(yaml("""
                levels: [a, b]
                domains:
                - {values: [a1, b1], count: 10}
                - {values: [a1, b2], count: 20}
                - {values: [a2, first-in-a2], count: 50}
                - {values: [a2, second-in-a2], count: 50}
                """));
        assertThat(KueueConversion.convert(v1, KueueConversion.V1BETA2)).as("back up: the same slices").isEqualTo(v2);
    }

    @Test
    void roundTripWorkloadWithTopologyAssignment() throws Exception {
        ObjectNode v1 = v1beta1Assignment(DOMAINS);
        ObjectNode v2 = KueueConversion.convert(v1, KueueConversion.V1BETA2);
        assertThat(KueueConversion.convert(v2, KueueConversion.V1BETA1)).isEqualTo(v1);
    }

    /** Kueue's TestWorkloadConvertTo "with TopologyAssignment": a1 universal, b1/b2 as prefix b with roots 1, 2. */
    @Test
    void convertToWithTopologyAssignment() throws Exception {
        ObjectNode v2 = KueueConversion.convert(v1beta1Assignment(DOMAINS), KueueConversion.V1BETA2);
        assertThat(v2.at(ASSIGNMENT)).isEqualTo(yaml("""
                levels: [a, b]
                slices:
                - domainCount: 2
                  valuesPerLevel:
                  - universal: a1
                  - individual: {prefix: b, roots: ["1", "2"]}
                  podCounts: {individual: [10, 20]}
                """));
        ObjectNode expanded = v2.deepCopy();
        expanded.put("apiVersion", KueueConversion.V1BETA1);
        TopologyAssignments.down((ObjectNode) expanded.at(ASSIGNMENT), "test");
        assertThat(expanded.at(ASSIGNMENT)).isEqualTo(yaml(DOMAINS));
    }

    @Test
    void topologyRequestReadsTheSameAndItsSliceConstraintsSurviveV1beta1() throws Exception {
        ObjectNode v2 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: default}
                spec:
                  podSets:
                  - name: main
                    count: 4
                    template: {spec: {containers: [{name: c, image: busybox}]}}
                    topologyRequest:
                      required: cloud.com/block
                      podIndexLabel: batch.kubernetes.io/job-completion-index
                      podSetGroupName: group1
                      podsetSliceRequiredTopologyConstraints:
                      - {topology: cloud.com/rack, size: 2}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        // Kueue's Convert_v1beta2_PodSetTopologyRequest_To_v1beta1 drops them; Sluice keeps them in its annotation
        assertThat(v1.at("/spec/podSets/0/topologyRequest")).isEqualTo(yaml("""
                required: cloud.com/block
                podIndexLabel: batch.kubernetes.io/job-completion-index
                podSetGroupName: group1
                """));
        assertThat(v1.at("/metadata/annotations").has(KueueConversion.V1BETA2_FIELDS)).isTrue();
        assertThat(KueueConversion.convert(v1, KueueConversion.V1BETA2)).isEqualTo(v2);
    }

    @Test
    void topologyAndTheFlavorsTopologyNameReadTheSameInBothVersions() throws Exception {
        ObjectNode topology = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Topology
                metadata: {name: default}
                spec:
                  levels: [{nodeLabel: cloud.com/block}, {nodeLabel: cloud.com/rack}, {nodeLabel: kubernetes.io/hostname}]
                """);
        ObjectNode up = KueueConversion.convert(topology, KueueConversion.V1BETA2);
        assertThat(up.path("apiVersion").asText()).isEqualTo(KueueConversion.V1BETA2);
        assertThat(up.path("spec")).isEqualTo(topology.path("spec"));
        assertThat(up.path("metadata")).isEqualTo(topology.path("metadata"));
        assertThat(KueueConversion.convert(up, KueueConversion.V1BETA1)).isEqualTo(topology);

        ObjectNode flavor = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: tas}
                spec: {nodeLabels: {cloud.com/pool: tas}, topologyName: default}
                """);
        ObjectNode down = KueueConversion.convert(flavor, KueueConversion.V1BETA1);
        assertThat(down.path("spec")).isEqualTo(flavor.path("spec"));
        assertThat(KueueConversion.convert(down, KueueConversion.V1BETA2)).isEqualTo(flavor);
    }
}
