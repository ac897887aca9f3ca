package dev.sluice.engine.tas;

import static dev.sluice.engine.tas.TasCase.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19.2's TestFindTopologyAssignmentsMultiLayerReplacement (pkg/cache/scheduler/tas_cache_test.go), case by
 * case with its names, on {@link NodeReplacement}: the failed node is NotReady (so not in the snapshot), the
 * Workload's pods elsewhere are booked as Kueue's priorFlavorUsage where the case has it, and each pod asks for 1 cpu.
 */
class KueueNodeReplacementCasesTest {
    private static final String SWITCH = "cloud.com/topology-switch";

    private static NodeBuilder n(String name, String cpu, boolean ready, String... levelValues) {
        NodeBuilder b = node(name).allocatable("cpu", cpu, "pods", "10");
        List<String> keys = levelValues.length == 3 ? List.of(BLOCK, RACK, SWITCH) : List.of(BLOCK, RACK);
        for (int i = 0; i < levelValues.length; i++) {
            b.label(keys.get(i), levelValues[i]);
        }
        b.label(HOSTNAME, name.substring(name.lastIndexOf('-') + 1));
        return ready ? b.ready() : b.notReady();
    }

    private static NodeReplacement.Result replace(TasCase c, PodSetTopologyRequest request, int count,
            TopologyAssignment existing, String unhealthy) {
        return NodeReplacement.find(c.snapshot(), TasPodSetRequest.of("main", count, kueueRequests("cpu", 1000), request),
                existing, unhealthy);
    }

    private static TopologyAssignment hosts(TopologyDomainAssignment... domains) {
        return assignment(List.of(HOSTNAME), domains);
    }

    private static PodSetTopologyRequest requiredWithSlices(String level, SliceConstraint... layers) {
        return PodSetTopologyRequest.ofRequired(level).withSliceConstraints(new ArrayList<>(List.of(layers)));
    }

    @Test
    @DisplayName("replacement does not cross a string-prefix sibling domain")
    void replacementDoesNotCrossAStringPrefixSiblingDomain() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-rack-a-x1", "1", false, "b1", "rack-a"),
                n("b1-rack-a-x2", "1", true, "b1", "rack-a"),
                n("b1-rack-ab-x3", "1", true, "b1", "rack-ab")))
                .priorOwnUsage(List.of("x2"), kueueRequests("cpu", 1000), 1);
        var r = replace(c, PodSetTopologyRequest.ofRequired(RACK), 2, hosts(d(1, "x1"), d(1, "x2")), "x1");
        assertThat(r.failureReason()).isEqualTo("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; "
                + "excluded: resource \"cpu\": 1, topologyDomain: 1");
    }

    @Test
    @DisplayName("replace unhealthy node in incomplete rack slice")
    void replaceUnhealthyNodeInIncompleteRackSlice() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-r1-x1", "1", true, "b1", "r1"), n("b1-r1-x2", "1", true, "b1", "r1"),
                n("b1-r2-x3", "1", false, "b1", "r2"), n("b1-r2-x4", "1", true, "b1", "r2"),
                n("b1-r2-x5", "2", true, "b1", "r2")));
        var r = replace(c, requiredWithSlices(BLOCK, new SliceConstraint(RACK, 2)), 4,
                hosts(d(1, "x1"), d(1, "x2"), d(1, "x3"), d(1, "x4")), "x3");
        assertThat(r.failureReason()).isNull();
        // confined to rack r2; BestFit takes x4 (the tighter fit)
        assertThat(r.assignment()).isEqualTo(hosts(d(1, "x1"), d(1, "x2"), d(2, "x4")));
    }

    @Test
    @DisplayName("replacement fails when no capacity in incomplete slice domain")
    void replacementFailsWhenNoCapacityInIncompleteSliceDomain() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-r1-x1", "1", true, "b1", "r1"), n("b1-r1-x2", "1", true, "b1", "r1"),
                n("b1-r2-x3", "1", false, "b1", "r2"), n("b1-r2-x4", "500m", true, "b1", "r2")));
        var r = replace(c, requiredWithSlices(BLOCK, new SliceConstraint(RACK, 2)), 4,
                hosts(d(1, "x1"), d(1, "x2"), d(1, "x3"), d(1, "x4")), "x3");
        assertThat(r.failureReason()).isEqualTo("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 3; "
                + "excluded: resource \"cpu\": 1, topologyDomain: 2");
    }

    @Test
    @DisplayName("3-layer: innermost broken domain confines replacement to correct switch")
    void threeLayerInnermostBrokenDomainConfinesReplacementToCorrectSwitch() {
        TasCase c = levels(List.of(BLOCK, RACK, SWITCH, HOSTNAME)).nodes(List.of(
                n("b1-r1-s1-x1", "4", true, "b1", "r1", "s1"), n("b1-r1-s1-x2", "4", true, "b1", "r1", "s1"),
                n("b1-r1-s2-x3", "4", false, "b1", "r1", "s2"), n("b1-r1-s2-x4", "8", true, "b1", "r1", "s2"),
                n("b1-r2-s3-x5", "4", true, "b1", "r2", "s3"), n("b1-r2-s3-x6", "4", true, "b1", "r2", "s3"),
                n("b1-r2-s4-x7", "4", true, "b1", "r2", "s4"), n("b1-r2-s4-x8", "4", true, "b1", "r2", "s4")));
        var r = replace(c, requiredWithSlices(BLOCK, new SliceConstraint(RACK, 8), new SliceConstraint(SWITCH, 4),
                new SliceConstraint(HOSTNAME, 2)), 16, hosts(d(2, "x1"), d(2, "x2"), d(2, "x3"), d(2, "x4"),
                d(2, "x5"), d(2, "x6"), d(2, "x7"), d(2, "x8")), "x3");
        assertThat(r.failureReason()).isNull();
        assertThat(r.assignment()).isEqualTo(hosts(d(2, "x1"), d(2, "x2"), d(4, "x4"), d(2, "x5"), d(2, "x6"),
                d(2, "x7"), d(2, "x8")));
    }

    @Test
    @DisplayName("2-layer: sliceSize=2 prevents scattered single-pod placement across hosts")
    void twoLayerSliceSize2PreventsScatteredSinglePodPlacementAcrossHosts() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-r1-x1", "2", true, "b1", "r1"), n("b1-r1-x2", "2", true, "b1", "r1"),
                n("b1-r2-x3", "2", false, "b1", "r2"), n("b1-r2-x4", "1", true, "b1", "r2"),
                n("b1-r2-x5", "1", true, "b1", "r2")));
        var r = replace(c, requiredWithSlices(BLOCK, new SliceConstraint(RACK, 4), new SliceConstraint(HOSTNAME, 2)), 8,
                hosts(d(2, "x1"), d(2, "x2"), d(2, "x3"), d(2, "x4")), "x3");
        assertThat(r.failureReason()).isEqualTo("topology \"default\" doesn't allow to fit any of 1 slice(s). Total nodes: 4; "
                + "excluded: topologyDomain: 2");
    }

    @Test
    @DisplayName("sibling-flavor aggregatedDomainUsages on replacement candidate blocks the replacement")
    void siblingFlavorAggregatedDomainUsagesOnReplacementCandidateBlocksTheReplacement() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-r1-x1", "1", true, "b1", "r1"), n("b1-r1-x2", "1", true, "b1", "r1"),
                n("b1-r2-x3", "1", false, "b1", "r2"), n("b1-r2-x4", "1", true, "b1", "r2")))
                .priorOwnUsage(List.of("x4"), kueueRequests("cpu", 1000), 1);
        var r = replace(c, requiredWithSlices(BLOCK, new SliceConstraint(RACK, 2)), 4,
                hosts(d(1, "x1"), d(1, "x2"), d(1, "x3"), d(1, "x4")), "x3");
        assertThat(r.failureReason()).isEqualTo("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 3; "
                + "excluded: resource \"cpu\": 1, topologyDomain: 2");
    }

    @Test
    void theFailedNodeHeldEveryPodTheReplacementGoesAnywhereTheRequestAllows() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-r1-x1", "1", false, "b1", "r1"), n("b2-r1-x2", "1", true, "b2", "r1")));
        var r = replace(c, PodSetTopologyRequest.ofRequired(RACK), 1, hosts(d(1, "x1")), "x1");
        assertThat(r.failureReason()).isNull();
        assertThat(r.assignment()).isEqualTo(hosts(d(1, "x2")));
        assertThat(r.replacement()).isEqualTo(hosts(d(1, "x2")));
    }

    @Test
    void aStaleDomainElsewhereInTheAssignmentIsReported() {
        TasCase c = levels(THREE_LEVELS).nodes(List.of(
                n("b1-r1-x1", "1", false, "b1", "r1"), n("b1-r1-x2", "1", false, "b1", "r1"),
                n("b1-r1-x3", "1", true, "b1", "r1")));
        var r = replace(c, PodSetTopologyRequest.ofRequired(RACK), 2, hosts(d(1, "x1"), d(1, "x2")), "x1");
        assertThat(r.failureReason()).isEqualTo(
                "Cannot replace the node, because the existing topologyAssignment is invalid, as it contains the stale domain x2");
    }
}
