package dev.sluice.controller.tas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.Node;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The taint half of Kueue v0.19.2's node health check (node_controller_test.go, TASReplaceNodeOnNodeTaints on): which
 * taints make a Ready node fail for a Workload once its pods there end. Case names are Kueue's; the pods' part
 * (running: wait; ended or none: unhealthy) is NodeFailures' rule, shared with NotReady, and tested against the API
 * server in TopologyPodsTest.
 */
class NodeTaintsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static Node node(String taintsYaml) throws Exception {
        return YAML.readValue("""
                apiVersion: v1
                kind: Node
                metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
                spec: {taints: %s}
                status: {conditions: [{type: Ready, status: "True"}]}
                """.formatted(taintsYaml), Node.class);
    }

    private static Workload workload(String tolerationsYaml, String checksYaml) throws Exception {
        return YAML.readValue("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: ns}
                spec:
                  queueName: lq
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        tolerations: %s
                        containers: [{name: c, image: busybox}]
                status:
                  admission:
                    clusterQueue: cq
                    podSetAssignments:
                    - name: main
                      count: 1
                      flavors: {cpu: tas-flavor}
                      topologyAssignment:
                        levels: [kubernetes.io/hostname]
                        slices: [{domainCount: 1, valuesPerLevel: [{universal: n1}], podCounts: {universal: 1}}]
                  admissionChecks: %s
                """.formatted(tolerationsYaml, checksYaml), Workload.class);
    }

    private static final Function<String, ResourceFlavor> NO_FLAVOR_TOLERATIONS = name -> null;

    @Test
    void nodeHasUntoleratedNoExecuteTaintUnhealthy() throws Exception {
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, effect: NoExecute}]"), workload("[]", "[]"),
                NO_FLAVOR_TOLERATIONS)).isTrue();
    }

    @Test
    void nodeHasNoExecuteTaintWithTolerationSecondsHealthyWaitForEviction() throws Exception {
        // tolerated only for a while: failing, so the node is reported once the pods the taint evicts have ended
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, effect: NoExecute}]"),
                workload("[{key: foo, operator: Exists, effect: NoExecute, tolerationSeconds: 300}]", "[]"),
                NO_FLAVOR_TOLERATIONS)).isTrue();
    }

    @Test
    void nodeHasNoScheduleTaintToleratedHealthy() throws Exception {
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, value: bar, effect: NoSchedule}]"),
                workload("[{key: foo, operator: Equal, value: bar, effect: NoSchedule}]", "[]"),
                NO_FLAVOR_TOLERATIONS)).isFalse();
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, value: bar, effect: NoSchedule}]"),
                workload("[{key: foo, operator: Equal, value: other, effect: NoSchedule}]", "[]"),
                NO_FLAVOR_TOLERATIONS)).as("another value").isTrue();
    }

    @Test
    void nodeHasNoScheduleTaintToleratedByAssignedResourceFlavorHealthy() throws Exception {
        ResourceFlavor rf = YAML.readValue("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: tas-flavor}
                spec: {tolerations: [{key: foo, operator: Exists, effect: NoSchedule}]}
                """, ResourceFlavor.class);
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, effect: NoSchedule}]"), workload("[]", "[]"),
                Map.of("tas-flavor", rf)::get)).isFalse();
    }

    @Test
    void assignedNodeGetsNoScheduleTaintToleratedByAdmissionCheckPodSetUpdateHealthy() throws Exception {
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, effect: NoSchedule}]"), workload("[]", """
                [{name: prov, state: Ready, lastTransitionTime: "2026-12-02T10:00:00Z", message: "",
                  podSetUpdates: [{name: main, tolerations: [{key: foo, operator: Exists}]}]}]"""),
                NO_FLAVOR_TOLERATIONS)).isFalse();
    }

    @Test
    void aPreferNoScheduleTaintIsNoFailure() throws Exception {
        assertThat(NodeTaints.notToleratedForGood(node("[{key: foo, effect: PreferNoSchedule}]"), workload("[]", "[]"),
                NO_FLAVOR_TOLERATIONS)).isFalse();
    }

    @Test
    void aTaintOnANodeNoPodSetIsAssignedToIsNotThisWorkloadsFailure() throws Exception {
        Node other = node("[{key: foo, effect: NoExecute}]");
        other.getMetadata().setName("n2");
        assertThat(NodeTaints.notToleratedForGood(other, workload("[]", "[]"), NO_FLAVOR_TOLERATIONS)).isFalse();
    }
}
