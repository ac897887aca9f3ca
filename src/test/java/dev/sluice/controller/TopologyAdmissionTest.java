package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Topology;
import dev.sluice.api.v1beta2.TopologyAnnotations;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.bridge.Topologies;
import dev.sluice.controller.cache.NodeView;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Topology-aware scheduling in the live controller: Nodes and pods made by the test reach the engine through the node
 * view; a Job or JobSet asking for a rack by {@code kueue.x-k8s.io/podset-required-topology} is admitted only when one
 * rack has room, and its admission's topologyAssignment names that rack's hosts. Each test has its own node pool
 * (the flavor's nodeLabels), Topology, flavor and queues, removed afterwards.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class TopologyAdmissionTest {

    static final String RACK = "tas.sluice.dev/rack";
    static final String HOST = "kubernetes.io/hostname";
    static final String POOL = "tas.sluice.dev/pool";

    @Inject
    KubernetesClient client;

    @Inject
    ControllerRuntime runtime;

    private final List<HasMetadata> made = new ArrayList<>();

    @AfterEach
    void removeWhatTheTestMade() {
        for (int i = made.size() - 1; i >= 0; i--) {
            client.resource(made.get(i)).delete();
        }
    }

    /**
     * A pool {@code name}: Topology (rack, host), flavor with its nodeLabels, ClusterQueue of {@code cpu} cpus,
     * LocalQueue "jobs" in namespace {@code name}; two racks r1 and r2 of two 2-cpu hosts each ({name}-h1..h4).
     */
    private Cluster pool(String name, String cpu, String preemption) throws InterruptedException {
        assertThat(runtime.awaitSettled(Cluster.TIMEOUT)).isTrue();
        Cluster cluster = new Cluster(client);
        cluster.namespace(name);
        for (int h = 1; h <= 4; h++) {
            keep(client.resource(node(name + "-h" + h, name, h <= 2 ? "r1" : "r2", "2")).create());
        }
        keep(client.resource(Queues.yaml(Topology.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Topology
                metadata: {name: %s}
                spec:
                  levels:
                  - nodeLabel: %s
                  - nodeLabel: %s
                """.formatted(name, RACK, HOST))).create());
        keep(client.resource(Queues.yaml(ResourceFlavor.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: %s}
                spec:
                  nodeLabels: {%s: %s}
                  topologyName: %s
                """.formatted(name, POOL, name, name))).create());
        keep(client.resource(Queues.yaml(ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  namespaceSelector: {}
                  preemption: {withinClusterQueue: %s}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: %s
                      resources:
                      - {name: cpu, nominalQuota: "%s"}
                """.formatted(name, preemption, name, cpu))).create());
        keep(client.resource(Queues.localQueue(name, "jobs", name)).create());
        awaitEngineNodes(v -> v.nodes().stream().filter(n -> name.equals(n.labels().get(POOL))).count() == 4);
        return cluster;
    }

    private <T extends HasMetadata> T keep(T o) {
        made.add(o);
        return o;
    }

    static Node node(String name, String pool, String rack, String cpu) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(POOL, pool, RACK, rack, HOST, name)).endMetadata()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity(cpu), "pods", new Quantity("10")))
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withLastHeartbeatTime(Instant.now().toString()).endCondition().endStatus().build();
    }

    /** Waits until the engine has been given a node view that satisfies {@code seen}. */
    private void awaitEngineNodes(Predicate<NodeView.Snapshot> seen) {
        await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(50))
                .ignoreException(java.util.concurrent.ExecutionException.class)
                .until(() -> runtime.read(l -> l.nodeView().synced() && l.nodeView().taken(seen)).get());
    }

    private static long cpuUsedOn(NodeView.Snapshot v, String node) {
        return v.nonTasUsage().getOrDefault(node, Map.of()).getOrDefault("cpu", 0L);
    }

    /** A held batch Job of {@code pods} pods of 1 cpu each, asking for one rack. */
    private Job job(String namespace, String name, int pods, String priorityClass) {
        Job job = new JobBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withLabels(Map.of(WellKnown.QUEUE_NAME, "jobs")).endMetadata()
                .withNewSpec().withParallelism(pods).withCompletions(pods).withSuspend(true)
                .withNewTemplate().withNewMetadata().withAnnotations(Map.of(TopologyAnnotations.REQUIRED, RACK))
                .endMetadata().withNewSpec().withRestartPolicy("Never").withPriorityClassName(priorityClass)
                .addNewContainer().withName("c").withImage("busybox").withNewResources()
                .withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec().endTemplate()
                .endSpec().build();
        return keep(client.batch().v1().jobs().inNamespace(namespace).resource(job).create());
    }

    /** The admission's topologyAssignment of the first pod set, read back as the engine reads it: host to pods. */
    static Map<String, Integer> hosts(Workload wl) {
        var recorded = wl.getStatus().getAdmission().getPodSetAssignments().get(0).getTopologyAssignment();
        assertThat(recorded).as("topologyAssignment of %s", wl.getMetadata().getName()).isNotNull();
        Map<String, Integer> out = new TreeMap<>();
        for (TopologyDomainAssignment d : Topologies.fromApi(recorded, "test", "topologyAssignment").domains()) {
            out.put(d.values().get(d.values().size() - 1), d.count());
        }
        return out;
    }

    /** Waits for the job's Workload to wait for a rack (the engine's TAS message), saying what it shows otherwise. */
    private Workload awaitPendingOnTopology(Cluster cluster, HasMetadata job) {
        Workload[] last = new Workload[1];
        try {
            return cluster.awaitWorkload(job, w -> {
                last[0] = w;
                return pendingOnTopology(w);
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            var c = last[0] == null ? null : Cluster.condition(last[0], "QuotaReserved");
            throw new AssertionError("not pending on topology: QuotaReserved " + (c == null ? null
                    : c.getStatus() + " " + c.getReason() + " " + c.getMessage()) + ", admission "
                    + (last[0] == null || last[0].getStatus() == null ? null
                    : Serialization.asJson(last[0].getStatus().getAdmission())), e);
        }
    }

    static boolean pendingOnTopology(Workload w) {
        var c = Cluster.condition(w, "QuotaReserved");
        return c != null && "False".equals(c.getStatus()) && c.getMessage() != null
                && c.getMessage().contains("topology \"" + w.getMetadata().getNamespace() + "\"") && c.getMessage().contains(" to fit ");
    }

    @Test
    void jobIsAdmittedOnlyWhenARackFits() throws Exception {
        String p = "tas-job";
        Cluster cluster = pool(p, "100", "Never");
        // a pod not placed by TAS takes host h1 whole: rack r1 has 2 cpus left, r2 has 4
        keep(client.pods().inNamespace(p).resource(new PodBuilder().withNewMetadata().withName("other").endMetadata()
                .withNewSpec().withNodeName(p + "-h1").addNewContainer().withName("c").withImage("busybox")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("2"))).endResources().endContainer()
                .endSpec().withNewStatus().withPhase("Running").endStatus().build()).create());
        awaitEngineNodes(v -> cpuUsedOn(v, p + "-h1") == 2000);

        Workload four = cluster.awaitWorkload(job(p, "four", 4, null), Cluster::admitted);
        assertThat(hosts(four)).isEqualTo(Map.of(p + "-h3", 2, p + "-h4", 2));
        assertThat(four.getStatus().getAdmission().getPodSetAssignments().get(0).getTopologyAssignment().getLevels())
                .contains(HOST);

        // three more pods: quota is plenty, but no rack has 3 cpus free
        Job three = job(p, "three", 3, null);
        Workload waiting = awaitPendingOnTopology(cluster, three);
        assertThat(waiting.getStatus().getAdmission()).isNull();

        // the other pod finishes: rack r1 is free, and the waiting Job goes there
        client.pods().inNamespace(p).withName("other").editStatus(pod -> {
            pod.getStatus().setPhase("Succeeded");
            return pod;
        });
        Workload admitted = cluster.awaitWorkload(three, Cluster::admitted);
        assertThat(hosts(admitted).keySet()).containsOnly(p + "-h1", p + "-h2");
        assertThat(hosts(admitted).values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);
    }

    /**
     * Placement and start together: the Job admitted on a rack is started with Kueue's topology gate on its template,
     * and its pods, made from that template as the Job controller makes them, are ungated each onto a host of the
     * admitted rack, as many per host as the assignment says.
     */
    @Test
    void aJobPlacedOnARackStartsGatedAndItsPodsAreUngatedOntoThatRacksHosts() throws Exception {
        String p = "tas-start";
        Cluster cluster = pool(p, "100", "Never");
        Job job = job(p, "train", 3, null);
        Workload admitted = cluster.awaitWorkload(job, Cluster::admitted);
        Map<String, Integer> want = hosts(admitted);
        assertThat(want.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);

        Job started = await().atMost(Cluster.TIMEOUT).until(
                () -> client.batch().v1().jobs().inNamespace(p).withName("train").get(), j -> !j.getSpec().getSuspend());
        var template = started.getSpec().getTemplate();
        assertThat(template.getSpec().getSchedulingGates()).extracting(g -> g.getName())
                .contains(WellKnown.TOPOLOGY_GATE);
        assertThat(template.getMetadata().getAnnotations()).containsEntry(WellKnown.WORKLOAD,
                admitted.getMetadata().getName());
        for (int i = 0; i < 3; i++) {
            var labels = new java.util.LinkedHashMap<>(template.getMetadata().getLabels() == null ? Map.<String, String>of()
                    : template.getMetadata().getLabels());
            labels.put("batch.kubernetes.io/job-completion-index", Integer.toString(i));
            keep(client.pods().inNamespace(p).resource(new PodBuilder().withNewMetadata().withName("train-" + i)
                    .withLabels(labels).withAnnotations(template.getMetadata().getAnnotations()).endMetadata()
                    .withSpec(Serialization.clone(template.getSpec())).build()).create());
        }
        Map<String, Integer> placed = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            String name = "train-" + i;
            var pod = await().atMost(Cluster.TIMEOUT).until(() -> client.pods().inNamespace(p).withName(name).get(),
                    x -> x.getSpec().getSchedulingGates() == null || x.getSpec().getSchedulingGates().stream()
                            .noneMatch(g -> WellKnown.TOPOLOGY_GATE.equals(g.getName())));
            assertThat(pod.getSpec().getNodeSelector()).as(name).containsEntry(POOL, p);
            placed.merge(pod.getSpec().getNodeSelector().get(HOST), 1, Integer::sum);
        }
        assertThat(placed).isEqualTo(want);
    }

    @Test
    void jobSetIsAdmittedOnlyWhenARackFits() throws Exception {
        String p = "tas-jobset";
        Cluster cluster = pool(p, "100", "Never");
        GenericKubernetesResource small = keep(client.resource(jobSet(p, "small", 2)).create());
        Map<String, Integer> smallHosts = hosts(cluster.awaitWorkload(small, Cluster::admitted));
        assertThat(smallHosts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2);
        boolean inR1 = smallHosts.keySet().stream().allMatch(h -> h.endsWith("-h1") || h.endsWith("-h2"));
        boolean inR2 = smallHosts.keySet().stream().allMatch(h -> h.endsWith("-h3") || h.endsWith("-h4"));
        assertThat(inR1 ^ inR2).as("the small JobSet in one rack: %s", smallHosts).isTrue();
        // 4 jobs of 1 pod need 4 cpus in one rack: only the rack the small JobSet does not use has them
        GenericKubernetesResource big = keep(client.resource(jobSet(p, "big", 4)).create());
        Workload bigWl = cluster.awaitWorkload(big, Cluster::admitted);
        assertThat(hosts(bigWl)).isEqualTo(inR1 ? Map.of(p + "-h3", 2, p + "-h4", 2) : Map.of(p + "-h1", 2, p + "-h2", 2));
        // 3 more: 2 cpus are left, in the small one's rack
        GenericKubernetesResource third = keep(client.resource(jobSet(p, "third", 3)).create());
        Workload waiting = awaitPendingOnTopology(cluster, third);
        assertThat(waiting.getStatus().getAdmission()).isNull();
    }

    /** A held JobSet of one replicated job with {@code replicas} jobs of 1 pod of 1 cpu, asking for one rack. */
    private GenericKubernetesResource jobSet(String namespace, String name, int replicas) {
        return Serialization.unmarshal("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: %s
                  namespace: %s
                  labels: {kueue.x-k8s.io/queue-name: jobs}
                spec:
                  suspend: true
                  replicatedJobs:
                  - name: workers
                    replicas: %d
                    template:
                      spec:
                        parallelism: 1
                        completions: 1
                        template:
                          metadata:
                            annotations: {"kueue.x-k8s.io/podset-required-topology": "%s"}
                          spec:
                            restartPolicy: Never
                            containers:
                            - name: c
                              image: busybox
                              resources: {requests: {cpu: "1"}}
                """.formatted(name, namespace, replicas, RACK), GenericKubernetesResource.class);
    }

    @Test
    void preemptionByAHigherPriorityJobFreesTheDomain() throws Exception {
        String p = "tas-preempt";
        Cluster cluster = pool(p, "4", "LowerPriority");
        for (var pc : List.of(Map.entry("tas-low", 10), Map.entry("tas-high", 1000))) {
            if (client.scheduling().v1().priorityClasses().withName(pc.getKey()).get() == null) {
                client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                        .withName(pc.getKey()).endMetadata().withValue(pc.getValue()).build()).create();
            }
        }
        Job low = job(p, "low", 4, "tas-low");
        Map<String, Integer> lowHosts = hosts(cluster.awaitWorkload(low, Cluster::admitted));
        // the quota (4 cpus) is all the low Job's: the high one preempts it and takes a rack
        Job high = job(p, "high", 4, "tas-high");
        Workload evicted = cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "Evicted")
                || w.getStatus().getAdmission() == null);
        assertThat(Cluster.condition(evicted, "Evicted").getReason()).isEqualTo("Preempted");
        Workload highWl = cluster.awaitWorkload(high, Cluster::admitted);
        assertThat(hosts(highWl).values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(4);
        assertThat(hosts(highWl).keySet()).hasSize(2);
        assertThat(lowHosts.keySet()).hasSize(2);
        assertThat(cluster.workloadOf(low).getStatus().getAdmission()).isNull();
    }

    @Test
    void aNotReadyNodeGivesItsCapacityToNoLaterPlacement() throws Exception {
        String p = "tas-notready";
        Cluster cluster = pool(p, "100", "Never");
        setReady(p + "-h1", "False");
        awaitEngineNodes(v -> v.nodes().stream().anyMatch(n -> n.name().equals(p + "-h1") && !n.ready()));
        // r1 has one Ready host (2 cpus): 4 pods fit only in r2
        Workload first = cluster.awaitWorkload(job(p, "first", 4, null), Cluster::admitted);
        assertThat(hosts(first)).isEqualTo(Map.of(p + "-h3", 2, p + "-h4", 2));
        // 3 more cannot go to r1 while h1 is not Ready; once it is, they can
        Job second = job(p, "second", 3, null);
        awaitPendingOnTopology(cluster, second);
        setReady(p + "-h1", "True");
        Workload admitted = cluster.awaitWorkload(second, Cluster::admitted);
        assertThat(hosts(admitted).keySet()).containsOnly(p + "-h1", p + "-h2");
    }

    @Test
    void aRestartBooksTheRecordedPlacementsBeforeItAdmits() throws Exception {
        String p = "tas-restart";
        Cluster cluster = pool(p, "100", "Never");
        Map<String, Integer> first = hosts(cluster.awaitWorkload(job(p, "first", 4, null), Cluster::admitted));
        assertThat(runtime.restart(Duration.ofSeconds(30))).isTrue();
        // the new engine counts first's rack as taken: the second Job gets the other one, a third waits
        Map<String, Integer> second = hosts(cluster.awaitWorkload(job(p, "second", 4, null), Cluster::admitted));
        assertThat(second.keySet()).doesNotContainAnyElementsOf(first.keySet()).hasSize(2);
        Workload third = awaitPendingOnTopology(cluster, job(p, "third", 1, null));
        assertThat(third.getStatus().getAdmission()).isNull();
    }

    @Test
    void heartbeatOnlyNodeUpdatesChangeNothing() throws Exception {
        String p = "tas-heartbeat";
        pool(p, "100", "Never");
        long before = runtime.read(l -> l.nodeView().changes()).get();
        for (int i = 0; i < 3; i++) {
            String beat = Instant.now().plusSeconds(10L * (i + 1)).toString();
            client.nodes().withName(p + "-h2").editStatus(n -> {
                NodeCondition ready = n.getStatus().getConditions().get(0);
                ready.setLastHeartbeatTime(beat);
                return n;
            });
        }
        // then a change TAS reads: the node's events come in order, so once it is counted the heartbeats were seen
        client.nodes().withName(p + "-h2").edit(n -> {
            n.getMetadata().getLabels().put("tas.sluice.dev/note", "relabelled");
            return n;
        });
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.read(l -> l.nodeView().changes()).get() > before);
        assertThat(runtime.read(l -> l.nodeView().changes()).get()).as("the heartbeats changed nothing")
                .isEqualTo(before + 1);
        awaitEngineNodes(v -> v.nodes().stream().map(TasNode::labels)
                .anyMatch(l -> "relabelled".equals(l.get("tas.sluice.dev/note"))));
    }

    private void setReady(String node, String status) {
        client.nodes().withName(node).editStatus(n -> {
            NodeCondition ready = n.getStatus().getConditions().get(0);
            ready.setStatus(status);
            ready.setLastTransitionTime(Instant.now().toString());
            return n;
        });
    }
}
