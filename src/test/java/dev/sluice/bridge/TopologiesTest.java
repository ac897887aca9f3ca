package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Topology;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.engine.Assignment;
import dev.sluice.engine.Engine;
import dev.sluice.engine.WorkloadPhase;
import dev.sluice.engine.tas.TasNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Topology-aware scheduling through the bridge: Topology, a flavor naming it, Node objects and a Workload's
 * topologyRequest reach the engine, and its placement comes back as v1beta2's compact topologyAssignment, which
 * reads back to the same placement.
 */
class TopologiesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static <T> T read(String yaml, Class<T> type) throws Exception {
        return YAML.readValue(yaml, type);
    }

    private static Node node(String name, String block, String rack, String cpu, boolean ready) throws Exception {
        return read("""
                apiVersion: v1
                kind: Node
                metadata:
                  name: %s
                  labels: {cloud.com/block: %s, cloud.com/rack: %s, kubernetes.io/hostname: %s}
                spec: {taints: [{key: gpu, value: "true", effect: NoSchedule}]}
                status:
                  allocatable: {cpu: "%s", memory: 8Gi, pods: "110"}
                  conditions: [{type: Ready, status: "%s"}]
                """.formatted(name, block, rack, name, cpu, ready ? "True" : "False"), Node.class);
    }

    private Engine engineWithRacks(int hostsPerRack) throws Exception {
        Engine engine = new Engine();
        engine.upsertTopology(Topologies.toEngine(read("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Topology
                metadata: {name: default}
                spec:
                  levels: [{nodeLabel: cloud.com/block}, {nodeLabel: cloud.com/rack}, {nodeLabel: kubernetes.io/hostname}]
                """, Topology.class)));
        engine.upsertFlavor(QueueObjects.flavor(read("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: tas}
                spec:
                  topologyName: default
                  tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]
                """, ResourceFlavor.class)));
        List<TasNode> nodes = new ArrayList<>();
        for (String rack : List.of("r1", "r2")) {
            for (int h = 1; h <= hostsPerRack; h++) {
                nodes.add(Nodes.toEngine(node(rack + "-h" + h, "b1", rack, "4", true)));
            }
        }
        engine.setNodes(nodes, Map.of());
        engine.upsertClusterQueue(QueueObjects.clusterQueue(read("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  namespaceSelector: {}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: tas, resources: [{name: cpu, nominalQuota: "100"}]}]
                """, ClusterQueue.class)));
        engine.upsertLocalQueue(QueueObjects.localQueue(read("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata: {name: lq, namespace: default}
                spec: {clusterQueue: cq}
                """, LocalQueue.class)));
        return engine;
    }

    private static Workload workload(String name, int pods, String annotationFree) throws Exception {
        return read("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: %s, namespace: default, uid: uid-%s}
                spec:
                  queueName: lq
                  podSets:
                  - name: main
                    count: %d
                    topologyRequest: {%s, podIndexLabel: batch.kubernetes.io/job-completion-index}
                    template:
                      spec:
                        containers: [{name: c, image: busybox, resources: {requests: {cpu: "2"}}}]
                """.formatted(name, name, pods, annotationFree), Workload.class);
    }

    private static Assignment settle(Engine engine, String name) {
        for (int i = 0; i < 10; i++) {
            engine.schedule(1000L * i);
        }
        var state = engine.workload(new dev.sluice.engine.WorkloadKey("default", name)).orElseThrow();
        return state.phase() == WorkloadPhase.ADMITTED ? state.assignment() : null;
    }

    @Test
    void aRequiredRackIsPlacedInOneRackAndWrittenInCompactSlices() throws Exception {
        Engine engine = engineWithRacks(2);
        Workload wl = workload("train", 4, "required: cloud.com/rack");
        engine.submit(EngineWorkloads.toEngine(wl, 1));
        Assignment assignment = settle(engine, "train");
        assertThat(assignment).as("4 pods of 2 cpu fit a rack of two 4-cpu hosts").isNotNull();

        var api = Admissions.toApi(assignment);
        var ta = api.getPodSetAssignments().get(0).getTopologyAssignment();
        assertThat(ta.getLevels()).containsExactly("kubernetes.io/hostname");
        List<String> hosts = new ArrayList<>();
        int pods = 0;
        var back = Admissions.fromApi(api, "Workload default/train").podSets().get(0).topologyAssignment();
        for (var d : back.domains()) {
            hosts.add(d.values().get(0));
            pods += d.count();
        }
        assertThat(pods).isEqualTo(4);
        assertThat(hosts).as("both hosts of one rack").isIn(List.of("r1-h1", "r1-h2"), List.of("r2-h1", "r2-h2"));
        assertThat(back).isEqualTo(assignment.podSets().get(0).topologyAssignment());
    }

    @Test
    void aRequiredRackTooSmallForThePodSetIsNotAdmittedThoughQuotaFits() throws Exception {
        Engine engine = engineWithRacks(2);
        engine.submit(EngineWorkloads.toEngine(workload("wide", 6, "required: cloud.com/rack"), 1));
        assertThat(settle(engine, "wide")).as("6 pods of 2 cpu need 12 cpu; a rack has 8").isNull();

        engine.submit(EngineWorkloads.toEngine(workload("spread", 6, "preferred: cloud.com/rack"), 2));
        assertThat(settle(engine, "spread")).as("preferred may spread over both racks").isNotNull();
    }

    @Test
    void aNotReadyNodeOffersNothing() throws Exception {
        Node down = node("h9", "b1", "r9", "64", false);
        assertThat(Nodes.toEngine(down).schedulableAndReady()).isFalse();
        assertThat(Nodes.toEngine(node("h8", "b1", "r8", "64", true)).allocatable())
                .containsEntry("cpu", 64_000L).containsEntry("pods", 110_000L);
    }

    @Test
    void aPodTakesItsRequestsAndOneSlot() throws Exception {
        Pod pod = read("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  overhead: {cpu: 100m}
                  initContainers: [{name: i, image: busybox, resources: {requests: {cpu: "3"}}}]
                  containers: [{name: c, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}]
                """, Pod.class);
        assertThat(Nodes.podUsage(pod.getSpec())).containsEntry("cpu", 3100L).containsEntry("pods", 1000L)
                .containsEntry("memory", 1024L * 1024 * 1024 * 1000);
    }

    @Test
    void aTopologyWithoutLevelsIsReportedByField() throws Exception {
        Topology t = read("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Topology
                metadata: {name: empty}
                spec: {levels: []}
                """, Topology.class);
        assertThatThrownBy(() -> Topologies.toEngine(t)).isInstanceOf(InvalidObjectException.class)
                .hasMessageContaining("spec.levels");
    }

    @Test
    void aRecordedSliceWhoseCountsDisagreeWithItsDomainsIsReportedNotGuessed() throws Exception {
        var ta = read("""
                levels: [kubernetes.io/hostname]
                slices:
                - domainCount: 2
                  valuesPerLevel: [{individual: {prefix: r1-, roots: [h1, h2]}}]
                  podCounts: {individual: [1, 2, 3]}
                """, dev.sluice.api.v1beta2.TopologyAssignment.class);
        assertThatThrownBy(() -> Topologies.fromApi(ta, "Workload default/w", "status.admission.podSetAssignments[0].topologyAssignment"))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessageContaining("podCounts.individual").hasMessageContaining("domainCount 2");
    }
}
