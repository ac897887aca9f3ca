package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.TopologyAnnotations;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.bridge.Topologies;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Topology-aware scheduling's pods against the test API server: the pods of a Job's and of a JobSet's Workload
 * admitted with a topology assignment (created by the test, as the Job controller would, with what start put on the
 * template) are ungated onto their domains by rank; a NotReady node of an assignment is reported in
 * status.unhealthyNodes, and a second failed node evicts the Workload as Kueue does.
 * <p>
 * The Workload is admitted by Sluice on a flavor without topology (its topology request names only the pods' index
 * labels, so it asks for no level), and its assignment is then given the topology assignment a TAS placement would
 * have written: the placement itself is the engine's, tested there.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class TopologyPodsTest {
    private static final String BLOCK = "cloud.google.com/gce-topology-block";
    private static final String RACK = "cloud.google.com/gce-topology-subblock";
    private static final String JOB_INDEX = "batch.kubernetes.io/job-completion-index";
    private static final String JOBSET_JOB_INDEX = "jobset.sigs.k8s.io/job-index";

    @Inject
    KubernetesClient client;

    Cluster cluster;

    @BeforeEach
    void setUp() {
        cluster = new Cluster(client);
        if (client.resource(Queues.flavor("tas-pods-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("tas-pods-flavor", "{}")).create();
        }
    }

    private void queues(String namespace) {
        cluster.namespace(namespace);
        client.resource(Queues.cpuQueue(namespace + "-cq", "tas-pods-flavor", "100", "{}")).create();
        client.resource(Queues.localQueue(namespace, "jobs", namespace + "-cq")).create();
    }

    /** A Workload of {@code count} pods asking for the topology request given, admitted, then given {@code ta}. */
    private Workload admittedWithTopology(String namespace, String name, int count, String topologyRequestYaml,
            TopologyAssignment ta) {
        Workload wl = Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: %s, namespace: %s}
                spec:
                  queueName: jobs
                  podSets:
                  - name: main
                    count: %d
                    topologyRequest: %s
                    template:
                      spec:
                        restartPolicy: Never
                        containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "1"}}}
                """.formatted(name, namespace, count, topologyRequestYaml));
        client.resource(wl).create();
        Workload admitted = cluster.awaitWorkload(wl, Cluster::admitted);
        client.resources(Workload.class).inNamespace(namespace).withName(name).editStatus(w -> {
            w.getStatus().getAdmission().getPodSetAssignments().get(0).setTopologyAssignment(Topologies.toApi(ta));
            return w;
        });
        return admitted;
    }

    /** A pod as the job's controller makes it from the started template: gated, labelled, annotated. */
    private Pod gatedPod(String namespace, String name, String workload, Map<String, String> labels) {
        Map<String, String> all = new LinkedHashMap<>(labels);
        all.put(WellKnown.POD_SET, "main");
        return client.pods().inNamespace(namespace).resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).withLabels(all)
                .withAnnotations(Map.of(WellKnown.WORKLOAD, workload, TopologyAnnotations.REQUIRED, RACK)).endMetadata()
                .withNewSpec().withSchedulingGates(new PodSchedulingGate(WellKnown.TOPOLOGY_GATE),
                        new PodSchedulingGate("example.com/other"))
                .withNodeSelector(Map.of("pool", "tpu"))
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
    }

    private Pod awaitUngated(String namespace, String name) {
        return await().atMost(Cluster.TIMEOUT).until(() -> client.pods().inNamespace(namespace).withName(name).get(),
                p -> p.getSpec().getSchedulingGates().stream().noneMatch(g -> WellKnown.TOPOLOGY_GATE.equals(g.getName())));
    }

    private static TopologyDomainAssignment domain(int count, String... values) {
        return new TopologyDomainAssignment(List.of(values), count);
    }

    @Test
    void theJobsPodsAreUngatedOntoTheDomainsOfTheirCompletionIndex() {
        String ns = "tas-pods-job";
        queues(ns);
        TopologyAssignment ta = new TopologyAssignment(List.of(BLOCK, RACK),
                List.of(domain(2, "b1", "s1"), domain(1, "b1", "s2"), domain(1, "b2", "s1")));
        admittedWithTopology(ns, "job-train-1a2b3", 4,
                "{podIndexLabel: " + JOB_INDEX + "}", ta);
        // created in another order than their indexes: the index decides
        for (int i : new int[] {3, 1, 0, 2}) {
            gatedPod(ns, "train-" + i, "job-train-1a2b3", Map.of(JOB_INDEX, Integer.toString(i),
                    WellKnown.JOB_NAME, "train"));
        }
        Map<Integer, Map<String, String>> want = Map.of(
                0, Map.of(BLOCK, "b1", RACK, "s1"), 1, Map.of(BLOCK, "b1", RACK, "s1"),
                2, Map.of(BLOCK, "b1", RACK, "s2"), 3, Map.of(BLOCK, "b2", RACK, "s1"));
        for (int i = 0; i < 4; i++) {
            Pod p = awaitUngated(ns, "train-" + i);
            Map<String, String> selector = new LinkedHashMap<>(want.get(i));
            selector.put("pool", "tpu"); // what the template had stays
            assertThat(p.getSpec().getNodeSelector()).as("train-" + i).containsExactlyInAnyOrderEntriesOf(selector);
            // only the topology gate is Sluice's to take off
            assertThat(p.getSpec().getSchedulingGates()).extracting(PodSchedulingGate::getName)
                    .containsExactly("example.com/other");
        }
        // a pod of another Workload, or without the Workload annotation, is not touched
        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("stranger").withNamespace(ns)
                .withLabels(Map.of(WellKnown.POD_SET, "main")).endMetadata().withNewSpec()
                .withSchedulingGates(new PodSchedulingGate(WellKnown.TOPOLOGY_GATE)).addNewContainer().withName("c")
                .withImage("busybox").endContainer().endSpec().build()).create();
        gatedPod(ns, "train-extra", "job-other", Map.of(JOB_INDEX, "0"));
        // the replacement of a pod that failed takes its place again: train-2's pod fails, a new one comes
        client.pods().inNamespace(ns).withName("train-2").editStatus(p -> {
            p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Failed").build());
            return p;
        });
        gatedPod(ns, "train-2-retry", "job-train-1a2b3", Map.of(JOB_INDEX, "2", WellKnown.JOB_NAME, "train"));
        assertThat(awaitUngated(ns, "train-2-retry").getSpec().getNodeSelector()).containsEntry(RACK, "s2")
                .containsEntry(BLOCK, "b1");
        assertThat(client.pods().inNamespace(ns).withName("stranger").get().getSpec().getSchedulingGates()).hasSize(1);
        assertThat(client.pods().inNamespace(ns).withName("train-extra").get().getSpec().getSchedulingGates())
                .extracting(PodSchedulingGate::getName).contains(WellKnown.TOPOLOGY_GATE);
    }

    @Test
    void theJobSetsPodsAreUngatedOntoTheNodesOfTheirJobAndCompletionIndex() {
        String ns = "tas-pods-jobset";
        queues(ns);
        for (String n : List.of("n1", "n2", "n3")) {
            node(n, "True"); // the nodes of the assignment exist and are Ready: no node failure to report
        }
        TopologyAssignment ta = new TopologyAssignment(List.of(Topology.HOSTNAME),
                List.of(domain(2, "n1"), domain(1, "n2"), domain(1, "n3")));
        admittedWithTopology(ns, "jobset-slices-4d5e6", 4, "{podIndexLabel: " + JOB_INDEX
                + ", subGroupIndexLabel: " + JOBSET_JOB_INDEX + ", subGroupCount: 2}", ta);
        for (int job = 1; job >= 0; job--) {
            for (int index = 1; index >= 0; index--) {
                gatedPod(ns, "slices-w-" + job + "-" + index, "jobset-slices-4d5e6", Map.of(JOB_INDEX,
                        Integer.toString(index), JOBSET_JOB_INDEX, Integer.toString(job), WellKnown.JOBSET_NAME, "slices"));
            }
        }
        assertThat(awaitUngated(ns, "slices-w-0-0").getSpec().getNodeSelector()).containsEntry(Topology.HOSTNAME, "n1");
        assertThat(awaitUngated(ns, "slices-w-0-1").getSpec().getNodeSelector()).containsEntry(Topology.HOSTNAME, "n1");
        assertThat(awaitUngated(ns, "slices-w-1-0").getSpec().getNodeSelector()).containsEntry(Topology.HOSTNAME, "n2");
        assertThat(awaitUngated(ns, "slices-w-1-1").getSpec().getNodeSelector()).containsEntry(Topology.HOSTNAME, "n3");
    }

    private Node node(String name, String ready) {
        Node n = client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(Topology.HOSTNAME, name)).endMetadata().build()).create();
        n.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder().addNewCondition().withType("Ready")
                .withStatus(ready).withReason(ready.equals("True") ? "KubeletReady" : "NodeStatusUnknown")
                .withLastTransitionTime("2026-12-02T16:00:00Z").endCondition().build());
        return client.nodes().resource(n).updateStatus();
    }

    private void setReady(String name, String ready) {
        client.nodes().withName(name).editStatus(n -> {
            n.getStatus().getConditions().get(0).setStatus(ready);
            return n;
        });
    }

    /** Kueue's TASReplaceNodeOnNodeTaints with TASReplaceNodeOnPodTermination: an untolerated taint waits for the pods. */
    @Test
    void aReadyNodeTaintedNoExecuteIsReportedOnceItsPodsEnd() {
        String ns = "tas-pods-taint";
        queues(ns);
        node("tas-node-t", "True");
        TopologyAssignment ta = new TopologyAssignment(List.of(Topology.HOSTNAME), List.of(domain(1, "tas-node-t")));
        Workload wl = admittedWithTopology(ns, "job-taint-1b2c3", 1, "{}", ta);
        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("taint-0").withNamespace(ns)
                .withLabels(Map.of(WellKnown.POD_SET, "main")).withAnnotations(Map.of(WellKnown.WORKLOAD,
                        "job-taint-1b2c3", TopologyAnnotations.UNCONSTRAINED, "true")).endMetadata()
                .withNewSpec().withNodeName("tas-node-t").addNewContainer().withName("c").withImage("busybox")
                .endContainer().endSpec().build()).create();
        client.pods().inNamespace(ns).withName("taint-0").editStatus(p -> {
            p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
            return p;
        });
        client.nodes().withName("tas-node-t").edit(n -> {
            if (n.getSpec() == null) {
                n.setSpec(new io.fabric8.kubernetes.api.model.NodeSpec());
            }
            n.getSpec().setTaints(List.of(new io.fabric8.kubernetes.api.model.TaintBuilder().withKey("maintenance")
                    .withEffect("NoExecute").build()));
            return n;
        });
        // a pod sent to the node by its selector but never bound there waits for ever: marked Failed (Kueue's
        // TerminatedByKueue), while the running pod keeps the node off the list
        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("taint-1").withNamespace(ns)
                .withLabels(Map.of(WellKnown.POD_SET, "main")).withAnnotations(Map.of(WellKnown.WORKLOAD,
                        "job-taint-1b2c3", TopologyAnnotations.UNCONSTRAINED, "true")).endMetadata()
                .withNewSpec().withNodeSelector(Map.of(Topology.HOSTNAME, "tas-node-t")).addNewContainer().withName("c")
                .withImage("busybox").endContainer().endSpec().withNewStatus().withPhase("Pending").endStatus().build())
                .create();
        Pod terminated = await().atMost(Cluster.TIMEOUT).until(() -> client.pods().inNamespace(ns).withName("taint-1")
                .get(), p -> p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()));
        assertThat(terminated.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("TerminatedByKueue");
            assertThat(c.getReason()).isEqualTo("UnschedulableOnAssignedNode");
        });
        // its pod still runs: not yet; it ends (evicted by the taint): reported
        await().during(java.time.Duration.ofMillis(500)).atMost(Cluster.TIMEOUT).until(() -> client.resources(
                Workload.class).inNamespace(ns).withName("job-taint-1b2c3").get().getStatus().getUnhealthyNodes() == null);
        client.pods().inNamespace(ns).withName("taint-0").editStatus(p -> {
            p.getStatus().setPhase("Failed");
            return p;
        });
        Workload reported = cluster.awaitWorkload(wl, w -> w.getStatus().getUnhealthyNodes() != null);
        assertThat(reported.getStatus().getUnhealthyNodes()).extracting(n -> n.getName()).containsExactly("tas-node-t");
    }

    @Test
    void aNotReadyNodeIsReportedAndASecondFailedNodeEvicts() {
        String ns = "tas-pods-nodes";
        queues(ns);
        node("tas-node-a", "True");
        node("tas-node-b", "True");
        TopologyAssignment ta = new TopologyAssignment(List.of(Topology.HOSTNAME),
                List.of(domain(1, "tas-node-a"), domain(1, "tas-node-b")));
        Workload wl = admittedWithTopology(ns, "job-nodes-7f8a9", 2, "{}", ta);
        // a pod running on the node: NotReady alone is no failure while it runs (Kueue waits for its pods to end)
        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("nodes-0").withNamespace(ns)
                .withLabels(Map.of(WellKnown.POD_SET, "main")).withAnnotations(Map.of(WellKnown.WORKLOAD,
                        "job-nodes-7f8a9", TopologyAnnotations.UNCONSTRAINED, "true")).endMetadata()
                .withNewSpec().withNodeName("tas-node-a").withNodeSelector(Map.of(Topology.HOSTNAME, "tas-node-a"))
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
        client.pods().inNamespace(ns).withName("nodes-0").editStatus(p -> {
            p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
            return p;
        });
        setReady("tas-node-a", "False");

        // its pod ends: the node is reported
        client.pods().inNamespace(ns).withName("nodes-0").editStatus(p -> {
            p.getStatus().setPhase("Failed");
            return p;
        });
        Workload reported = cluster.awaitWorkload(wl, w -> w.getStatus().getUnhealthyNodes() != null);
        assertThat(reported.getStatus().getUnhealthyNodes()).extracting(n -> n.getName()).containsExactly("tas-node-a");
        assertThat(Cluster.isTrue(reported, "Evicted")).isFalse();

        // Ready again: off the list
        setReady("tas-node-a", "True");
        cluster.awaitWorkload(wl, w -> w.getStatus().getUnhealthyNodes() == null);

        // gone: reported at once; then a second node fails: evicted for node failures
        client.nodes().withName("tas-node-a").delete();
        cluster.awaitWorkload(wl, w -> w.getStatus().getUnhealthyNodes() != null);
        setReady("tas-node-b", "False");
        Workload evicted = cluster.awaitWorkload(wl, w -> Cluster.isTrue(w, "Evicted"));
        assertThat(Cluster.condition(evicted, "Evicted").getReason()).isEqualTo("NodeFailures");
        assertThat(Cluster.condition(evicted, "Evicted").getMessage()).isEqualTo(
                "Workload eviction triggered due to multiple TAS assigned node failures, including: tas-node-a, tas-node-b");
        await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(evicted).stream()
                .anyMatch(e -> "EvictedDueToNodeFailures".equals(e.getReason())));
    }
}
