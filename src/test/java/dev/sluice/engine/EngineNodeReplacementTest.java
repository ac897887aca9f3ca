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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine's second pass after a node failure (Engine.replaceNode): an admitted workload's pods on the failed node
 * get a node of the same required rack when one has room, and the engine holds the new assignment from then on;
 * none in the rack, no replacement (the caller evicts).
 */
class EngineNodeReplacementTest {
    private static final String RACK = "cloud.com/topology-rack";
    private static final Topology RACKS = new Topology("racks", List.of(RACK, Topology.HOSTNAME));
    private static final FlavorSpec TAS = new FlavorSpec("tas", Map.of(), List.of(), List.of(), "racks");

    private final Engine engine = new Engine();

    private static TasNode node(String name, String rack, boolean ready) {
        return new TasNode(name, Map.of(RACK, rack, Topology.HOSTNAME, name), Map.of("cpu", 1000L, "pods", 10_000L),
                List.of(), ready, false);
    }

    private void world(List<TasNode> nodes) {
        engine.upsertTopology(RACKS);
        engine.upsertFlavor(TAS);
        engine.setNodes(nodes, Map.of());
        engine.upsertClusterQueue(new ClusterQueueSpec("cq", null, List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("tas", List.of(new ResourceQuota("cpu", 100_000L)))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), StopPolicy.None));
        engine.upsertLocalQueue(lq("default", "main", "cq"));
        engine.submit(new WorkloadSpec(key("train"), "uid-train", "main", 0, 1, List.of(new PodSetSpec("workers", 2, null,
                Map.of("cpu", 1000L), Map.of(), List.of(), List.of(), PodSetTopologyRequest.ofRequired(RACK))), true));
        settle(engine, 10);
    }

    private TopologyAssignment assigned() {
        return engine.workload(key("train")).orElseThrow().assignment().podSets().get(0).topologyAssignment();
    }

    private static TopologyAssignment hosts(String... names) {
        return new TopologyAssignment(List.of(Topology.HOSTNAME),
                java.util.Arrays.stream(names).map(n -> new TopologyDomainAssignment(List.of(n), 1)).toList());
    }

    @Test
    void thePodsOfTheFailedNodeGoToAFreeNodeOfTheSameRack() {
        world(List.of(node("x1", "r1", true), node("x2", "r1", true), node("x3", "r1", true), node("y1", "r2", true),
                node("y2", "r2", true), node("y3", "r2", true)));
        TopologyAssignment before = assigned();
        assertThat(before.domains()).hasSize(2);
        String failed = before.domains().get(0).values().get(0);
        String rack = failed.substring(0, 1).equals("x") ? "r1" : "r2";
        // the failed node is gone from the nodes TAS sees
        List<TasNode> now = new java.util.ArrayList<>();
        for (String n : List.of("x1", "x2", "x3", "y1", "y2", "y3")) {
            now.add(node(n, n.startsWith("x") ? "r1" : "r2", !n.equals(failed)));
        }
        engine.setNodes(now, Map.of());

        var results = engine.replaceNode(key("train"), failed);
        assertThat(results).containsOnlyKeys("workers");
        assertThat(results.get("workers").found()).isTrue();
        TopologyAssignment after = results.get("workers").assignment();
        assertThat(after.domains()).hasSize(2).noneMatch(d -> d.values().get(0).equals(failed))
                .allMatch(d -> d.values().get(0).startsWith(rack.equals("r1") ? "x" : "y"));
        assertThat(after.domains()).anyMatch(d -> d.equals(before.domains().get(1))); // the other pod stays
        assertThat(assigned()).isEqualTo(after);
    }

    @Test
    void noRoomInTheRequiredRackIsNoReplacement() {
        world(List.of(node("x1", "r1", true), node("x2", "r1", true), node("y1", "r2", true)));
        TopologyAssignment before = assigned();
        assertThat(before).isEqualTo(hosts("x1", "x2"));
        engine.setNodes(List.of(node("x1", "r1", false), node("x2", "r1", true), node("y1", "r2", true)), Map.of());

        var results = engine.replaceNode(key("train"), "x1");
        assertThat(results.get("workers").found()).isFalse();
        assertThat(results.get("workers").failureReason()).contains("doesn't allow to fit");
        assertThat(assigned()).isEqualTo(before);
    }

    @Test
    void aNodeNotInTheAssignmentNeedsNothing() {
        world(List.of(node("x1", "r1", true), node("x2", "r1", true), node("y1", "r2", true)));
        assertThat(engine.replaceNode(key("train"), "y1")).isEmpty();
        assertThat(engine.replaceNode(key("nobody"), "x1")).isEmpty();
    }
}
