package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.key;
import static dev.sluice.engine.Fixtures.lq;
import static dev.sluice.engine.Fixtures.settle;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cases of Kueue v0.19.2's TestScheduleForTAS (pkg/scheduler/scheduler_tas_test.go) through the engine, named after
 * the Go case: which flavors a pod set may take when some have a topology, the topology assignment an admission
 * carries, and the reasons a TAS workload waits. Its shared objects: the one-level topology "tas-single-level"
 * (hostname), the flavor "tas-default" on nodes labelled tas-node=true, the plain flavor "default", the node x1
 * (1 cpu, 1Gi, 10 pods) and the ClusterQueue "tas-main" (50 cpu, 50Gi on tas-default).
 */
class KueueScheduleForTasCasesTest {
    private static final String RACK = "cloud.provider.com/rack";
    private static final Topology SINGLE_LEVEL = new Topology("tas-single-level", List.of(Topology.HOSTNAME));
    private static final FlavorSpec TAS_DEFAULT = new FlavorSpec("tas-default", Map.of("tas-node", "true"), List.of(),
            List.of(), "tas-single-level");
    private static final FlavorSpec DEFAULT = new FlavorSpec("default", Map.of(), List.of(), List.of());
    private static final TasNode X1 = new TasNode("x1", Map.of("tas-node", "true", Topology.HOSTNAME, "x1"),
            Map.of("cpu", 1000L, "memory", 1024L * 1024 * 1024 * 1000, "pods", 10_000L), List.of(), true, false);

    private final Engine engine = new Engine();

    private void world(List<FlavorSpec> flavors, ClusterQueueSpec cq, Topology... topologies) {
        for (Topology t : topologies) {
            engine.upsertTopology(t);
        }
        for (FlavorSpec f : flavors) {
            engine.upsertFlavor(f);
        }
        engine.setNodes(List.of(X1), Map.of());
        engine.upsertClusterQueue(cq);
        engine.upsertLocalQueue(lq("default", "tas-main", cq.name()));
    }

    /** Kueue's defaultClusterQueue: 50 cpu and 50Gi on tas-default. */
    private static ClusterQueueSpec defaultClusterQueue() {
        return queue(List.of("cpu", "memory"), quotas("tas-default", "cpu", 50_000L, "memory", 50L * 1024 * 1024 * 1024 * 1000));
    }

    private static ClusterQueueSpec queue(List<String> resources, FlavorQuotas... flavors) {
        return new ClusterQueueSpec("tas-main", null, List.of(new ResourceGroupSpec(resources, List.of(flavors))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), StopPolicy.None);
    }

    private static FlavorQuotas quotas(String flavor, Object... resourceAndNominal) {
        List<ResourceQuota> rq = new ArrayList<>();
        for (int i = 0; i < resourceAndNominal.length; i += 2) {
            rq.add(new ResourceQuota((String) resourceAndNominal[i], ((Number) resourceAndNominal[i + 1]).longValue()));
        }
        return new FlavorQuotas(flavor, rq);
    }

    private static PodSetSpec podSet(String name, int count, long cpuMilli, PodSetTopologyRequest tr) {
        return new PodSetSpec(name, count, null, Map.of("cpu", cpuMilli), Map.of(), List.of(), List.of(), tr);
    }

    private static WorkloadSpec workload(String name, PodSetSpec... podSets) {
        return new WorkloadSpec(key(name), "uid-" + name, "tas-main", 0, 1, List.of(podSets), true);
    }

    private static TopologyAssignment onHosts(TopologyDomainAssignment... d) {
        return new TopologyAssignment(List.of(Topology.HOSTNAME), List.of(d));
    }

    private static TopologyDomainAssignment host(String name, int count) {
        return new TopologyDomainAssignment(List.of(name), count);
    }

    private PodSetAssignment admitted(String workload, String podSet) {
        Assignment a = engine.workload(key(workload)).orElseThrow().assignment();
        assertThat(a).as("%s admitted", workload).isNotNull();
        return a.podSets().stream().filter(p -> p.name().equals(podSet)).findFirst().orElseThrow();
    }

    private WorkloadState pending(String workload) {
        WorkloadState s = engine.workload(key(workload)).orElseThrow();
        assertThat(s.phase()).isNotEqualTo(WorkloadPhase.ADMITTED);
        return s;
    }

    /** "workload which does not specify TAS annotation uses the only TAS flavor": the queue is TAS-only (implied). */
    @Test
    void workloadWhichDoesNotSpecifyTASAnnotationUsesTheOnlyTASFlavor() {
        world(List.of(TAS_DEFAULT, DEFAULT), queue(List.of("cpu"), quotas("tas-default", "cpu", 50_000L)), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("one", 1, 1000, null)));
        settle(engine, 10);
        assertThat(admitted("foo", "one").flavors()).isEqualTo(Map.of("cpu", "tas-default"));
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "workload requiring TAS skips the non-TAS flavor". */
    @Test
    void workloadRequiringTASSkipsTheNonTASFlavor() {
        world(List.of(TAS_DEFAULT, DEFAULT), queue(List.of("cpu"), quotas("default", "cpu", 50_000L),
                quotas("tas-default", "cpu", 50_000L)), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("one", 1, 1000, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").flavors()).isEqualTo(Map.of("cpu", "tas-default"));
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "workload which does not need TAS skips the TAS flavor". */
    @Test
    void workloadWhichDoesNotNeedTASSkipsTheTASFlavor() {
        world(List.of(TAS_DEFAULT, DEFAULT), queue(List.of("cpu"), quotas("tas-default", "cpu", 50_000L),
                quotas("default", "cpu", 50_000L)), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("one", 1, 1000, null)));
        settle(engine, 10);
        assertThat(admitted("foo", "one").flavors()).isEqualTo(Map.of("cpu", "default"));
        assertThat(admitted("foo", "one").topologyAssignment()).isNull();
    }

    /** "workload with mixed PodSets (requiring TAS and not)". */
    @Test
    void workloadWithMixedPodSetsRequiringTASAndNot() {
        world(List.of(TAS_DEFAULT, DEFAULT), queue(List.of("cpu"), quotas("tas-default", "cpu", 50_000L),
                quotas("default", "cpu", 50_000L)), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("launcher", 1, 500, null),
                podSet("worker", 1, 500, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(admitted("foo", "launcher").flavors()).isEqualTo(Map.of("cpu", "default"));
        assertThat(admitted("foo", "launcher").topologyAssignment()).isNull();
        assertThat(admitted("foo", "worker").flavors()).isEqualTo(Map.of("cpu", "tas-default"));
        assertThat(admitted("foo", "worker").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "workload required TAS gets scheduled". */
    @Test
    void workloadRequiredTASGetsScheduled() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("one", 1, 1000, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "workload requests topology level which is not present in topology". */
    @Test
    void workloadRequestsTopologyLevelWhichIsNotPresentInTopology() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("one", 1, 1000, PodSetTopologyRequest.ofRequired("cloud.com/non-existing"))));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.NoMatchingFlavor);
        assertThat(pending("foo").message())
                .isEqualTo("couldn't assign flavors to pod set one: Flavor \"tas-default\" does not contain the requested level");
    }

    /** "workload requests topology level which is only present in second flavor". */
    @Test
    void workloadRequestsTopologyLevelWhichIsOnlyPresentInSecondFlavor() {
        Topology custom = new Topology("tas-custom-topology", List.of("cloud.com/custom-level"));
        FlavorSpec customFlavor = new FlavorSpec("tas-custom-flavor", Map.of("tas-node", "true"), List.of(), List.of(),
                "tas-custom-topology");
        world(List.of(TAS_DEFAULT, customFlavor), queue(List.of("cpu"), quotas("tas-default", "cpu", 50_000L),
                quotas("tas-custom-flavor", "cpu", 50_000L)), SINGLE_LEVEL, custom);
        engine.setNodes(List.of(new TasNode("x1", Map.of("tas-node", "true", "cloud.com/custom-level", "x1"),
                Map.of("cpu", 1000L, "pods", 10_000L), List.of(), true, false)), Map.of());
        engine.submit(workload("foo", podSet("one", 1, 1000, PodSetTopologyRequest.ofRequired("cloud.com/custom-level"))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").flavors()).isEqualTo(Map.of("cpu", "tas-custom-flavor"));
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(new TopologyAssignment(
                List.of("cloud.com/custom-level"), List.of(new TopologyDomainAssignment(List.of("x1"), 1))));
    }

    /** "workload does not get scheduled as it does not fit within the node capacity". */
    @Test
    void workloadDoesNotGetScheduledAsItDoesNotFitWithinTheNodeCapacity() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.submit(workload("foo", podSet("one", 2, 1000, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.TopologyPlacementFailed);
        assertThat(pending("foo").message()).isEqualTo("couldn't assign flavors to pod set one: topology "
                + "\"tas-single-level\" allows to fit only 1 out of 2 pod(s)");
    }

    /** "workload does not get scheduled as the node capacity is already used by another TAS workload". */
    @Test
    void workloadDoesNotGetScheduledAsTheNodeCapacityIsAlreadyUsedByAnotherTASWorkload() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        WorkloadSpec bar = workload("bar-admitted", podSet("one", 1, 1000,
                PodSetTopologyRequest.ofRequired(Topology.HOSTNAME)));
        engine.restoreAdmitted(bar, new Assignment("tas-main", List.of(new PodSetAssignment("one",
                Map.of("cpu", "tas-default"), Map.of("cpu", 1000L), 1, onHosts(host("x1", 1))))), 0);
        engine.submit(workload("foo", podSet("one", 1, 1000, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.WaitingForQuota);
        assertThat(pending("foo").message()).isEqualTo("couldn't assign flavors to pod set one: topology "
                + "\"tas-single-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1");
        // once it finishes, the node is free again
        engine.finish(key("bar-admitted"));
        settle(engine, 20);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "workload does not get scheduled as the node capacity is already used by a non-TAS pod" (600m of x1). */
    @Test
    void workloadDoesNotGetScheduledAsTheNodeCapacityIsAlreadyUsedByANonTASPod() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.setNodes(List.of(X1), Map.of("x1", Map.of("cpu", 600L, "pods", 1000L)));
        engine.submit(workload("foo", podSet("one", 1, 500, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.TopologyPlacementFailed);
    }

    /** Two TAS workloads in one cycle: the second sees the first's placement (x1 holds one 1-cpu pod). */
    @Test
    void aPlacementInTheCycleCountsForTheNextHead() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.submit(workload("a", podSet("one", 1, 1000, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        engine.submit(new WorkloadSpec(key("b"), "uid-b", "tas-main", 0, 2, List.of(podSet("one", 1, 1000,
                PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))), true));
        settle(engine, 10);
        assertThat(admitted("a", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
        assertThat(pending("b").unadmittedReason()).isEqualTo(UnadmittedReason.WaitingForQuota);
    }

    /** "scheduling workload on a tainted node when the toleration is on ResourceFlavor": the flavor's toleration counts. */
    @Test
    void schedulingWorkloadOnATaintedNodeWhenTheTolerationIsOnResourceFlavor() {
        FlavorSpec tolerating = new FlavorSpec("tas-default", Map.of("tas-node", "true"), List.of(),
                List.of(new Toleration("example.com/gpu", "Exists", null, null)), "tas-single-level");
        world(List.of(tolerating), queue(List.of("cpu"), quotas("tas-default", "cpu", 50_000L)), SINGLE_LEVEL);
        engine.setNodes(List.of(new TasNode("x1", Map.of("tas-node", "true", Topology.HOSTNAME, "x1"),
                Map.of("cpu", 1000L, "pods", 10_000L), List.of(new Taint("example.com/gpu", "present", "NoSchedule")),
                true, false)), Map.of());
        engine.submit(workload("foo", podSet("one", 1, 1000, PodSetTopologyRequest.ofPreferred(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "TAS workload gets scheduled as trimmed by partial admission": 5 pods, min 1, x1 holds one. */
    @Test
    void tasWorkloadGetsScheduledAsTrimmedByPartialAdmission() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.submit(workload("foo", new PodSetSpec("one", 5, 1, Map.of("cpu", 1000L), Map.of(), List.of(), List.of(),
                PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").count()).isEqualTo(1);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /** "does not admit workload when node does not match required affinity": the node lacks unused-key. */
    @Test
    void doesNotAdmitWorkloadWhenNodeDoesNotMatchRequiredAffinity() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        engine.submit(workload("foo", new PodSetSpec("one", 1, null, Map.of("cpu", 1000L), Map.of(),
                List.of(new NodeSelectorTerm(List.of(new NodeSelectorRequirement("unused-key", "In", List.of("value"))))),
                List.of(), PodSetTopologyRequest.ofPreferred(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.TopologyPlacementFailed);
    }

    /** Kueue's nodesWithZeroCapacityInstance: x1 has no cpu, x2 and x3 one each, all in rack r1. */
    private void partiallyEmptyNodes() {
        Topology twoLevel = new Topology("tas-two-level", List.of(RACK, Topology.HOSTNAME));
        world(List.of(new FlavorSpec("tas-default", Map.of("tas-node", "true"), List.of(), List.of(), "tas-two-level")),
                defaultClusterQueue(), twoLevel);
        List<TasNode> nodes = new ArrayList<>();
        for (String[] n : new String[][] {{"x1", "0"}, {"x2", "1000"}, {"x3", "1000"}}) {
            nodes.add(new TasNode(n[0], Map.of("tas-node", "true", Topology.HOSTNAME, n[0], RACK, "r1"),
                    Map.of("cpu", Long.parseLong(n[1]), "pods", 10_000L), List.of(), true, false));
        }
        engine.setNodes(nodes, Map.of());
    }

    /** "admits workload when nodes are partially empty; unconstrained". */
    @Test
    void admitsWorkloadWhenNodesArePartiallyEmptyUnconstrained() {
        partiallyEmptyNodes();
        engine.submit(workload("foo", podSet("one", 2, 1000, PodSetTopologyRequest.ofUnconstrained())));
        settle(engine, 10);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x2", 1), host("x3", 1)));
    }

    /** "admits workload when nodes are partially empty; preferred". */
    @Test
    void admitsWorkloadWhenNodesArePartiallyEmptyPreferred() {
        partiallyEmptyNodes();
        engine.submit(workload("foo", podSet("one", 2, 1000, PodSetTopologyRequest.ofPreferred(RACK))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x2", 1), host("x3", 1)));
    }

    /** "admits workload when nodes are partially empty; required". */
    @Test
    void admitsWorkloadWhenNodesArePartiallyEmptyRequired() {
        partiallyEmptyNodes();
        engine.submit(workload("foo", podSet("one", 2, 1000, PodSetTopologyRequest.ofRequired(RACK))));
        settle(engine, 10);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x2", 1), host("x3", 1)));
    }

    /**
     * "workload with multiple PodSets requesting the same TAS flavor; multiple levels": the worker (7 cpu) fits no
     * node of 3 cpu; the message names it.
     */
    @Test
    void workloadWithMultiplePodSetsRequestingTheSameTASFlavorMultipleLevels() {
        world(List.of(new FlavorSpec("tas-default", Map.of("tas-node", "true"), List.of(), List.of(), "tas-two-level")),
                queue(List.of("cpu"), quotas("tas-default", "cpu", 50_000L)),
                new Topology("tas-two-level", List.of(RACK, Topology.HOSTNAME)));
        List<TasNode> nodes = new ArrayList<>();
        for (String n : List.of("x1", "y1")) {
            nodes.add(new TasNode(n, Map.of("tas-node", "true", RACK, "r1", Topology.HOSTNAME, n),
                    Map.of("cpu", 3000L, "pods", 10_000L), List.of(), true, false));
        }
        engine.setNodes(nodes, Map.of());
        engine.submit(workload("foo", podSet("launcher", 1, 1000, PodSetTopologyRequest.ofPreferred(Topology.HOSTNAME)),
                podSet("worker", 1, 7000, PodSetTopologyRequest.ofPreferred(Topology.HOSTNAME))));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.TopologyPlacementFailed);
        assertThat(pending("foo").message()).isEqualTo("couldn't assign flavors to pod set worker: topology "
                + "\"tas-two-level\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: resource \"cpu\": 2");
    }

    /** "workload gets admitted next to already admitted workload, multiple resources used". */
    @Test
    void workloadGetsAdmittedNextToAlreadyAdmittedWorkloadMultipleResourcesUsed() {
        world(List.of(TAS_DEFAULT), defaultClusterQueue(), SINGLE_LEVEL);
        long mi500 = 500L * 1024 * 1024 * 1000;
        PodSetSpec one = new PodSetSpec("one", 1, null, Map.of("cpu", 500L, "memory", mi500), Map.of(), List.of(),
                List.of(), PodSetTopologyRequest.ofRequired(Topology.HOSTNAME));
        engine.restoreAdmitted(workload("bar-admitted", one), new Assignment("tas-main", List.of(new PodSetAssignment(
                "one", Map.of("cpu", "tas-default", "memory", "tas-default"), Map.of("cpu", 500L, "memory", mi500), 1,
                onHosts(host("x1", 1))))), 0);
        engine.submit(workload("foo", one));
        settle(engine, 10);
        assertThat(admitted("foo", "one").topologyAssignment()).isEqualTo(onHosts(host("x1", 1)));
    }

    /**
     * A pod set asking for TAS where no flavor has a topology waits with Kueue's reason, and one not asking is admitted
     * as before (no topology assignment).
     */
    @Test
    void withoutTopologyOnlyPodSetsAskingForTasWait() {
        engine.upsertFlavor(DEFAULT);
        engine.upsertClusterQueue(queue(List.of("cpu"), quotas("default", "cpu", 50_000L)));
        engine.upsertLocalQueue(lq("default", "tas-main", "tas-main"));
        engine.submit(workload("foo", podSet("one", 3, 1000, PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))));
        engine.submit(workload("plain", podSet("one", 3, 1000, null)));
        settle(engine, 10);
        assertThat(pending("foo").unadmittedReason()).isEqualTo(UnadmittedReason.NoMatchingFlavor);
        assertThat(pending("foo").message())
                .isEqualTo("couldn't assign flavors to pod set one: Flavor \"default\" does not support TopologyAwareScheduling");
        assertThat(admitted("plain", "one").topologyAssignment()).isNull();
    }
}
