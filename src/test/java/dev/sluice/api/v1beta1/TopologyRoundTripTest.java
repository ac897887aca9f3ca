package dev.sluice.api.v1beta1;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.v1beta2.DelayedTopologyRequestState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** Objects with the topology fields read into each version's model, field for field, and write back unchanged. */
class TopologyRoundTripTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper STRICT = Serialization.jsonMapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static <T extends HasMetadata> T roundTrips(String document, Class<T> type) throws Exception {
        JsonNode original = YAML.readTree(document);
        T model = STRICT.treeToValue(original, type);
        assertThat((JsonNode) STRICT.valueToTree(model)).isEqualTo(original);
        return model;
    }

    @Test
    void topologyInBothVersions() throws Exception {
        String levels = """
                metadata: {name: default}
                spec:
                  levels: [{nodeLabel: cloud.com/block}, {nodeLabel: cloud.com/rack}, {nodeLabel: kubernetes.io/hostname}]
                """;
        var v2 = roundTrips("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\n" + levels,
                dev.sluice.api.v1beta2.Topology.class);
        assertThat(v2.getSpec().getLevels()).extracting(l -> l.getNodeLabel())
                .containsExactly("cloud.com/block", "cloud.com/rack", "kubernetes.io/hostname");
        roundTrips("apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\n" + levels, Topology.class);
    }

    @Test
    void resourceFlavorWithATopologyName() throws Exception {
        String flavor = """
                metadata: {name: tas-flavor}
                spec: {nodeLabels: {cloud.com/pool: tas}, topologyName: default}
                """;
        var v2 = roundTrips("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n" + flavor,
                dev.sluice.api.v1beta2.ResourceFlavor.class);
        assertThat(v2.getSpec().getTopologyName()).isEqualTo("default");
        roundTrips("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n" + flavor, ResourceFlavor.class);
    }

    @Test
    void v1beta2WorkloadWithTopologyRequestAndSlices() throws Exception {
        var wl = roundTrips("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: job-a, namespace: default}
                spec:
                  queueName: lq
                  podSets:
                  - name: main
                    count: 4
                    template: {spec: {containers: [{name: c, image: busybox}]}}
                    topologyRequest:
                      required: cloud.com/block
                      podIndexLabel: batch.kubernetes.io/job-completion-index
                      subGroupIndexLabel: jobset.sigs.k8s.io/job-index
                      subGroupCount: 2
                      podSetSliceRequiredTopology: cloud.com/rack
                      podSetSliceSize: 2
                      podsetSliceRequiredTopologyConstraints: [{topology: cloud.com/rack, size: 2}]
                status:
                  admission:
                    clusterQueue: cq
                    podSetAssignments:
                    - name: main
                      count: 4
                      flavors: {cpu: tas-flavor}
                      delayedTopologyRequest: Ready
                      topologyAssignment:
                        levels: [kubernetes.io/hostname]
                        slices:
                        - domainCount: 2
                          valuesPerLevel: [{individual: {prefix: node-, roots: ["1", "2"]}}]
                          podCounts: {universal: 2}
                """, dev.sluice.api.v1beta2.Workload.class);
        var assignment = wl.getStatus().getAdmission().getPodSetAssignments().get(0);
        assertThat(assignment.getDelayedTopologyRequest()).isEqualTo(DelayedTopologyRequestState.Ready);
        assertThat(assignment.getTopologyAssignment().getSlices().get(0).getPodCounts().getUniversal()).isEqualTo(2);
        assertThat(wl.getSpec().getPodSets().get(0).getTopologyRequest().getRequired()).isEqualTo("cloud.com/block");
    }

    @Test
    void v1beta1WorkloadWithTopologyRequestAndDomains() throws Exception {
        var wl = roundTrips("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: job-a, namespace: default}
                spec:
                  queueName: lq
                  podSets:
                  - name: main
                    count: 3
                    template: {spec: {containers: [{name: c, image: busybox}]}}
                    topologyRequest: {preferred: cloud.com/rack, podSetGroupName: group1}
                status:
                  admission:
                    clusterQueue: cq
                    podSetAssignments:
                    - name: main
                      delayedTopologyRequest: Pending
                      topologyAssignment:
                        levels: [cloud.com/block, cloud.com/rack]
                        domains:
                        - {values: [b1, r1], count: 2}
                        - {values: [b1, r2], count: 1}
                """, Workload.class);
        assertThat(wl.getStatus().getAdmission().getPodSetAssignments().get(0).getTopologyAssignment().getDomains())
                .extracting(TopologyDomainAssignment::getCount).containsExactly(2, 1);
    }
}
