package dev.sluice.engine.tas;

import static dev.sluice.engine.tas.TasCase.AIZONE;
import static dev.sluice.engine.tas.TasCase.BLOCK;
import static dev.sluice.engine.tas.TasCase.DATACENTER;
import static dev.sluice.engine.tas.TasCase.HOSTNAME;
import static dev.sluice.engine.tas.TasCase.RACK;
import static dev.sluice.engine.tas.TasCase.assignment;
import static dev.sluice.engine.tas.TasCase.d;
import static dev.sluice.engine.tas.TasCase.kueueRequests;
import static dev.sluice.engine.tas.TasCase.node;
import static dev.sluice.engine.tas.TasCase.podSet;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cases of Kueue v0.19.2's TestFindTopologyAssignments whose Go builds its nodes or levels in code, translated by
 * hand (the rest: {@link KueueFindTopologyAssignmentsCasesTest}), and the one with prior usage of the flavor.
 */
class KueueFindTopologyAssignmentsMoreCasesTest {
    /**
     * "multi-layer topology: mimic a real-world GB200 cluster, with NVL36 arch (2GPUs/node); dc required; aizone
     * slices of 48; rack slices of 16; TASMultiLayerTopology": 1 dc x 2 aizones x 2 blocks x 2 racks, 18 nodes of 2
     * GPUs per rack; 96 pods of 2 GPUs, 48 per aizone, 16 per rack: 6 racks of 16.
     */
    @Test
    void multiLayerTopologyMimicARealWorldGB200ClusterWithNVL36Arch2GPUsNodeDcRequiredAizoneSlicesOf48RackSlicesOf16() {
        String[][] racks = {{"dc0", "aizone0", "block0", "r0"}, {"dc0", "aizone0", "block0", "r1"},
            {"dc0", "aizone0", "block1", "r2"}, {"dc0", "aizone0", "block1", "r3"}, {"dc0", "aizone1", "block2", "r4"},
            {"dc0", "aizone1", "block2", "r5"}, {"dc0", "aizone1", "block3", "r6"}, {"dc0", "aizone1", "block3", "r7"}};
        List<TasCase.NodeBuilder> nodes = new ArrayList<>();
        for (String[] r : racks) {
            for (int i = 0; i < 18; i++) {
                nodes.add(node(r[2] + "-" + r[3] + "-" + r[1] + "-n" + i).label(DATACENTER, r[0]).label(AIZONE, r[1])
                        .label(BLOCK, r[2]).label(RACK, r[3]).allocatable("nvidia.com/gpu", "2", "pods", "110").ready());
            }
        }
        List<String> levels = List.of(DATACENTER, AIZONE, BLOCK, RACK);
        TasCase.levels(levels)
                .nodes(nodes)
                .podSet(podSet("main", 96).topologyRequest().required(DATACENTER)
                        .sliceConstraints(new SliceConstraint(AIZONE, 48), new SliceConstraint(RACK, 16))
                        .requests(kueueRequests("nvidia.com/gpu", 2L))
                        .wants(assignment(levels,
                                d(16, "dc0", "aizone0", "block0", "r0"),
                                d(16, "dc0", "aizone0", "block0", "r1"),
                                d(16, "dc0", "aizone0", "block1", "r2"),
                                d(16, "dc0", "aizone1", "block2", "r4"),
                                d(16, "dc0", "aizone1", "block2", "r5"),
                                d(16, "dc0", "aizone1", "block3", "r6"))))
                .check();
    }

    /**
     * "multi-layer topology: 3-layer negative case with small hosts cascading up": x7 and x8 are too small for
     * hostname slices of 3, so r4 loses its rack slice and b2 its block slice.
     */
    @Test
    void multiLayerTopology3LayerNegativeCaseWithSmallHostsCascadingUp() {
        String[][] hosts = {{"b1", "r1", "x1", "4"}, {"b1", "r1", "x2", "4"}, {"b1", "r2", "x3", "4"},
            {"b1", "r2", "x4", "4"}, {"b2", "r3", "x5", "4"}, {"b2", "r3", "x6", "4"}, {"b2", "r4", "x7", "1"},
            {"b2", "r4", "x8", "1"}};
        List<TasCase.NodeBuilder> nodes = new ArrayList<>();
        for (String[] h : hosts) {
            nodes.add(node("dc1-" + h[0] + "-" + h[1] + "-" + h[2]).label(DATACENTER, "dc1").label(BLOCK, h[0])
                    .label(RACK, h[1]).label(HOSTNAME, h[2]).allocatable("cpu", h[3], "pods", "10").ready());
        }
        TasCase.levels(List.of(DATACENTER, BLOCK, RACK, HOSTNAME))
                .nodes(nodes)
                .podSet(podSet("main", 24).topologyRequest().required(DATACENTER)
                        .sliceConstraints(new SliceConstraint(BLOCK, 12), new SliceConstraint(RACK, 6),
                                new SliceConstraint(HOSTNAME, 3))
                        .requests(kueueRequests("cpu", 1000L))
                        .wantsReason("topology \"default\" doesn't allow to fit; 1/2 slice(s) fit on level "
                                + "cloud.com/topology-block; 3/4 slice(s) fit on level cloud.com/topology-rack; 6/8 "
                                + "slice(s) fit on level kubernetes.io/hostname"))
                .check();
    }

    /**
     * "non-hostname-leaf topology: prior c.usage must be applied even when aggregatedDomainUsages is non-nil empty":
     * b1/r1 and b1/r2 are taken by a prior workload of the flavor, so a 1-CPU rack-required pod lands on b2.
     */
    @Test
    void nonHostnameLeafTopologyPriorCUsageMustBeApplied() {
        TasCase.levels(List.of(BLOCK, RACK))
                .nodes(List.of(
                        node("b1-r1").label(BLOCK, "b1").label(RACK, "r1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r2").label(BLOCK, "b1").label(RACK, "r2").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b2-r1").label(BLOCK, "b2").label(RACK, "r1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b2-r2").label(BLOCK, "b2").label(RACK, "r2").allocatable("cpu", "1", "pods", "10").ready()))
                .priorOwnUsage(List.of("b1", "r1"), kueueRequests("cpu", 1000L), 1)
                .priorOwnUsage(List.of("b1", "r2"), kueueRequests("cpu", 1000L), 1)
                .podSet(podSet("main", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                        .wants(assignment(List.of(BLOCK, RACK), d(1, "b2", "r1"))))
                .check();
    }
}
