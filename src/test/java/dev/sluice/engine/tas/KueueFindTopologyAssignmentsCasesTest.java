package dev.sluice.engine.tas;

import static dev.sluice.engine.tas.TasCase.BLOCK;
import static dev.sluice.engine.tas.TasCase.HOSTNAME;
import static dev.sluice.engine.tas.TasCase.ONE_LEVEL;
import static dev.sluice.engine.tas.TasCase.RACK;
import static dev.sluice.engine.tas.TasCase.THREE_LEVELS;
import static dev.sluice.engine.tas.TasCase.TWO_LEVELS;
import static dev.sluice.engine.tas.TasCase.assignment;
import static dev.sluice.engine.tas.TasCase.d;
import static dev.sluice.engine.tas.TasCase.kueueRequests;
import static dev.sluice.engine.tas.TasCase.node;
import static dev.sluice.engine.tas.TasCase.pod;
import static dev.sluice.engine.tas.TasCase.podSet;

import dev.sluice.engine.Toleration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cases of Kueue v0.19.2's TestFindTopologyAssignments (pkg/cache/scheduler/tas_cache_test.go), each named after
 * its Go case, with v0.19.2's default gates. Not translated: the cases of gates off by default in v0.19.2
 * (TASBalancedPlacement, ElasticJobsViaWorkloadSlicesWithTAS, TASRespectNodeAffinityPreferred), node replacement
 * (a workload with unhealthy nodes), and cross-flavor usage (TASHandleOverlappingFlavors' aggregated usages).
 */
class KueueFindTopologyAssignmentsCasesTest {
    /** "minimize the number of used racks before optimizing the number of nodes; BestFit". */
    @Test
    void minimizeTheNumberOfUsedRacksBeforeOptimizingTheNumberOfNodesBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r2-x5").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x5").allocatable("cpu", "2", "pods", "20").ready(),
                        node("b1-r3-x1").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r3-x6").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x6").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r3-x2").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x2").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r3-x4").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x4").allocatable("cpu", "1", "pods", "10").ready()))
                .podSet(podSet("main", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"), d(1, "x2"), d(1, "x4"), d(1, "x6"))))
                .check();
    }

    /** "choose the node that can accommodate all Pods". */
    @Test
    void chooseTheNodeThatCanAccommodateAllPods() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready()))
                .podSet(podSet("main", 2).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(2, "x3"))))
                .check();
    }

    /** "no annotation; implied default to unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack; BestFit". */
    @Test
    void noAnnotationImpliedDefaultToUnconstrained6PodsFitIntoHostsScatteredAcrossTheWholeDatacenterEvenTheyCouldFitIntoSingleRackBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(scatteredNodes())
                .podSet(podSet("main", 6).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"), d(1, "x3"), d(1, "x5"), d(1, "x2"), d(2, "x6"))))
                .check();
    }

    /** "unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack; BestFit". */
    @Test
    void unconstrained6PodsFitIntoHostsScatteredAcrossTheWholeDatacenterEvenTheyCouldFitIntoSingleRackBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(scatteredNodes())
                .podSet(podSet("main", 6).topologyRequest().unconstrained(true).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"), d(1, "x3"), d(1, "x5"), d(1, "x2"), d(2, "x6"))))
                .check();
    }

    /** "unconstrained; a single pod fits into each host; BestFit". */
    @Test
    void unconstrainedASinglePodFitsIntoEachHostBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().unconstrained(true).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "unconstrained; a single pod fits into each host; LeastFreeCapacity; TASProfileMixed". */
    @Test
    void unconstrainedASinglePodFitsIntoEachHostLeastFreeCapacityTASProfileMixed() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().unconstrained(true).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "block required; 4 pods fit into one host each; BestFit". */
    @Test
    void blockRequired4PodsFitIntoOneHostEachBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(binaryTreesNodes())
                .podSet(podSet("main", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"), d(1, "x5"), d(1, "x1"), d(1, "x6"))))
                .check();
    }

    /** "host required; single Pod fits in the host; BestFit". */
    @Test
    void hostRequiredSinglePodFitsInTheHostBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "host required; single Pod fits in the host; BestFit; TASProfileMixed". */
    @Test
    void hostRequiredSinglePodFitsInTheHostBestFitTASProfileMixed() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "host preferred; single Pod fits in the host; BestFit; TASProfileMixed". */
    @Test
    void hostPreferredSinglePodFitsInTheHostBestFitTASProfileMixed() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "rack required; single Pod fits in a rack; BestFit". */
    @Test
    void rackRequiredSinglePodFitsInARackBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(1, "b1", "r1"))))
                .check();
    }

    /** "rack required; multiple Pods fit in a rack; BestFit". */
    @Test
    void rackRequiredMultiplePodsFitInARackBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 3).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(3, "b1", "r2"))))
                .check();
    }

    /** "block preferred; Pods fit in 2 blocks; BestFit". */
    @Test
    void blockPreferredPodsFitIn2BlocksBestFit() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "2", "pods", "20").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b3").label(BLOCK, "b3").allocatable("cpu", "4", "pods", "40").ready()))
                .podSet(podSet("main", 5).topologyRequest().preferred(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(BLOCK), d(1, "b2"), d(4, "b3"))))
                .check();
    }

    /** "rack required; multiple Pods fit in some racks; BestFit". */
    @Test
    void rackRequiredMultiplePodsFitInSomeRacksBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 2).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(2, "b2", "r2"))))
                .check();
    }

    /** "rack required; too many pods to fit in any rack; BestFit". */
    @Test
    void rackRequiredTooManyPodsToFitInAnyRackBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" allows to fit only 3 out of 4 pod(s)"))
                .check();
    }

    /** "block required; single Pod fits in a block and a single rack; BestFit". */
    @Test
    void blockRequiredSinglePodFitsInABlockAndASingleRackBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(BLOCK, RACK), d(1, "b2", "r1"))))
                .check();
    }

    /** "block required; single Pod fits in a block spread across two racks; BestFit". */
    @Test
    void blockRequiredSinglePodFitsInABlockSpreadAcrossTwoRacksBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(BLOCK, RACK), d(1, "b1", "r1"), d(3, "b1", "r2"))))
                .check();
    }

    /** "block required; Pods fit in a block spread across two racks; BestFit". */
    @Test
    void blockRequiredPodsFitInABlockSpreadAcrossTwoRacksBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(1, "b1", "r1"), d(3, "b1", "r2"))))
                .check();
    }

    /** "block required; single Pod which cannot be split; BestFit". */
    @Test
    void blockRequiredSinglePodWhichCannotBeSplitBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 4000L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: resource \"cpu\": 4"))
                .check();
    }

    /** "block required; too many Pods to fit requested; BestFit". */
    @Test
    void blockRequiredTooManyPodsToFitRequestedBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 5).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" allows to fit only 4 out of 5 pod(s)"))
                .check();
    }

    /** "rack required; single Pod requiring memory; BestFit". */
    @Test
    void rackRequiredSinglePodRequiringMemoryBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().required(RACK).requests(kueueRequests("memory", 1024L))
                    .wants(assignment(TWO_LEVELS, d(4, "b1", "r1"))))
                .check();
    }

    /** "rack preferred; but only block can accommodate the workload; BestFit". */
    @Test
    void rackPreferredButOnlyBlockCanAccommodateTheWorkloadBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().preferred(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(1, "b1", "r1"), d(3, "b1", "r2"))))
                .check();
    }

    /** "rack preferred; but only multiple blocks can accommodate the workload; BestFit". */
    @Test
    void rackPreferredButOnlyMultipleBlocksCanAccommodateTheWorkloadBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 6).topologyRequest().preferred(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(1, "b1", "r1"), d(3, "b1", "r2"), d(2, "b2", "r2"))))
                .check();
    }

    /** "block preferred; but only multiple blocks can accommodate the workload; BestFit". */
    @Test
    void blockPreferredButOnlyMultipleBlocksCanAccommodateTheWorkloadBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 6).topologyRequest().preferred(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(1, "b1", "r1"), d(3, "b1", "r2"), d(2, "b2", "r2"))))
                .check();
    }

    /** "block preferred; but the workload cannot be accommodate in entire topology; BestFit". */
    @Test
    void blockPreferredButTheWorkloadCannotBeAccommodateInEntireTopologyBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 10).topologyRequest().preferred(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" allows to fit only 7 out of 10 pod(s)"))
                .check();
    }

    /** "only nodes with matching labels are considered; no matching node; BestFit". */
    @Test
    void onlyNodesWithMatchingLabelsAreConsideredNoMatchingNodeBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-b"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10")))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("no topology domains at level: kubernetes.io/hostname"))
                .check();
    }

    /** "only nodes with matching labels are considered; matching node is found; BestFit". */
    @Test
    void onlyNodesWithMatchingLabelsAreConsideredMatchingNodeIsFoundBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "only nodes with matching levels are considered; no host label on node; BestFit". */
    @Test
    void onlyNodesWithMatchingLevelsAreConsideredNoHostLabelOnNodeBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("no topology domains at level: cloud.com/topology-rack"))
                .check();
    }

    /** "don't consider unscheduled Pods when computing capacity; BestFit". */
    @Test
    void donTConsiderUnscheduledPodsWhenComputingCapacityBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .pods(pod("test-unscheduled").request("cpu", "600m"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 600L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "don't consider terminal pods when computing the capacity; BestFit". */
    @Test
    void donTConsiderTerminalPodsWhenComputingTheCapacityBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .pods(pod("test-failed").on("x3").request("cpu", "600m").phase("Failed"), pod("test-succeeded").on("x3").request("cpu", "600m").phase("Succeeded"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 600L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))))
                .check();
    }

    /** "include usage from pending scheduled non-TAS pods, blocked assignment; BestFit". */
    @Test
    void includeUsageFromPendingScheduledNonTASPodsBlockedAssignmentBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .pods(pod("test-pending").on("x3").phase("Pending").request("cpu", "600m"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 600L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1"))
                .check();
    }

    /** "include usage from running non-TAS pods, blocked assignment; BestFit". */
    @Test
    void includeUsageFromRunningNonTASPodsBlockedAssignmentBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .pods(pod("test-running").on("x3").phase("Running").request("cpu", "600m"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 600L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1"))
                .check();
    }

    /** "node allocatable capacity completely used by non-TAS pod; empty remainingCapacity". */
    @Test
    void nodeAllocatableCapacityCompletelyUsedByNonTASPodEmptyRemainingCapacity() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("cpu", "1", "pods", "1").ready()))
                .pods(pod("running1").on("x3").phase("Running").request("cpu", "1"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 100L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1"))
                .check();
    }

    /** "include usage from non-TAS pods; pod usage". */
    @Test
    void includeUsageFromNonTASPodsPodUsage() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("pods", "10").ready()))
                .pods(pod("running1").on("x3").phase("Running"), pod("running2").on("x3").phase("Running"))
                .podSet(podSet("main", 9).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 0L))
                    .wantsReason("topology \"default\" allows to fit only 8 out of 9 pod(s)"))
                .check();
    }

    /** "include usage from running non-TAS pods, found free capacity on another node; BestFit". */
    @Test
    void includeUsageFromRunningNonTASPodsFoundFreeCapacityOnAnotherNodeBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x3").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("x5").label(HOSTNAME, "x5").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .pods(pod("test-pod").on("x3").request("cpu", "600m"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 600L))
                    .wants(assignment(ONE_LEVEL, d(1, "x5"))))
                .check();
    }

    /** "no assignment as node is not ready; BestFit". */
    @Test
    void noAssignmentAsNodeIsNotReadyBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").notReady()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("no topology domains at level: kubernetes.io/hostname"))
                .check();
    }

    /** "no assignment as node is unschedulable; BestFit". */
    @Test
    void noAssignmentAsNodeIsUnschedulableBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready().unschedulable()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("no topology domains at level: kubernetes.io/hostname"))
                .check();
    }

    /** "skip node which has untolerated taint; BestFit". */
    @Test
    void skipNodeWhichHasUntoleratedTaintBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready().taint("example.com/gpu", "present", "NoSchedule")))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: taint \"example.com/gpu=present:NoSchedule\": 1"))
                .check();
    }

    /** "detailed failure message with exclusion stats". */
    @Test
    void detailedFailureMessageWithExclusionStats() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x1").label(HOSTNAME, "x1").taint("key", "value", "NoSchedule").allocatable("cpu", "1", "pods", "10").ready(),
                        node("x2").label(HOSTNAME, "x2").label("zone", "zone-b").allocatable("cpu", "1", "pods", "10").ready(),
                        node("x3").label(HOSTNAME, "x3").label("zone", "zone-b").allocatable("cpu", "2", "pods", "10").ready(),
                        node("x4").label(HOSTNAME, "x4").label("zone", "zone-a").allocatable("cpu", "100m", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L)).nodeSelector(Map.of("zone", "zone-a"))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: nodeSelector: 2, resource \"cpu\": 1, taint \"key=value:NoSchedule\": 1"))
                .check();
    }

    /** "resource exclusion picks most restrictive resource". */
    @Test
    void resourceExclusionPicksMostRestrictiveResource() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("dual-shortage").label(HOSTNAME, "dual-shortage").allocatable("cpu", "500m", "pods", "10", "example.com/gpu", "0").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"cpu\": 1"))
                .check();
    }

    /** "allow to schedule on node with tolerated taint; BestFit". */
    @Test
    void allowToScheduleOnNodeWithToleratedTaintBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").taint("example.com/gpu", "present", "NoSchedule").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"))).tolerations(new Toleration("example.com/gpu", "Equal", "present", "")))
                .check();
    }

    /** "no assignment as node does not have enough allocatable pods (.status.allocatable['pods']); BestFit". */
    @Test
    void noAssignmentAsNodeDoesNotHaveEnoughAllocatablePodsStatusAllocatablePodsBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1000m", "pods", "1").ready()))
                .pods(pod("test-running").on("b1-r1-x3").phase("Running").request("cpu", "300m"))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 300L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"pods\": 1"))
                .check();
    }

    /** "multiple PodSets account assumed pod usage against allocatable pods; BestFit". */
    @Test
    void multiplePodSetsAccountAssumedPodUsageAgainstAllocatablePodsBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("x1").label(HOSTNAME, "x1").allocatable("cpu", "2", "pods", "1").ready()))
                .podSet(podSet("one", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"))))
                .podSet(podSet("two", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource \"pods\": 1"))
                .check();
    }

    /** "skip node which doesn't match node selector, missing label; BestFit". */
    @Test
    void skipNodeWhichDoesnTMatchNodeSelectorMissingLabelBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("x3").label("zone", "zone-a").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 300L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: nodeSelector: 1").nodeSelector(Map.of("custom-label-1", "custom-value-1")))
                .check();
    }

    /** "skip node which doesn't match node selector, label exists, value doesn't match; BestFit". */
    @Test
    void skipNodeWhichDoesnTMatchNodeSelectorLabelExistsValueDoesnTMatchBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("x3").label("zone", "zone-a").label(HOSTNAME, "x3").label("custom-label-1", "value-1").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 300L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: nodeSelector: 1").nodeSelector(Map.of("custom-label-1", "value-2")))
                .check();
    }

    /** "allow to schedule on node which matches node; BestFit". */
    @Test
    void allowToScheduleOnNodeWhichMatchesNodeBestFit() {
        TasCase.levels(ONE_LEVEL)
                .nodeLabels(Map.of("zone", "zone-a"))
                .nodes(List.of(
                        node("b1-r1-x3").label("zone", "zone-a").label(HOSTNAME, "x3").label("custom-label-1", "value-1").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r1-x5").label("zone", "zone-a").label(HOSTNAME, "x5").label("custom-label-1", "value-2").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x5"))).nodeSelector(Map.of("custom-label-1", "value-2")))
                .check();
    }

    /** "block required for podset; host required for slices; BestFit". */
    @Test
    void blockRequiredForPodsetHostRequiredForSlicesBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().required(BLOCK).sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(2, "x1"), d(2, "x3"), d(2, "x5"))))
                .check();
    }

    /** "block required for podset; host required for slices; prioritize more free slice capacity first and then tight fit; BestFit". */
    @Test
    void blockRequiredForPodsetHostRequiredForSlicesPrioritizeMoreFreeSliceCapacityFirstAndThenTightFitBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "6", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "5", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r1-x6").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x6").allocatable("cpu", "2", "pods", "10").ready()))
                .podSet(podSet("main", 12).topologyRequest().required(BLOCK).sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(4, "x1"), d(6, "x3"), d(2, "x6"))))
                .check();
    }

    /** "block required for podset; host required for slices; select domains with tight fit; BestFit". */
    @Test
    void blockRequiredForPodsetHostRequiredForSlicesSelectDomainsWithTightFitBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "2", "pods", "10").ready()))
                .podSet(podSet("main", 4).topologyRequest().required(BLOCK).sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(2, "x1"), d(2, "x5"))))
                .check();
    }

    /** "block required for podset; rack required for slices; BestFit". */
    @Test
    void blockRequiredForPodsetRackRequiredForSlicesBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r2-x1").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r2-x6").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x6").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r2-x2").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x2").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b2-r1-x4").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x4").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b2-r1-x7").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x7").allocatable("cpu", "1", "pods", "10").ready()))
                .podSet(podSet("main", 4).topologyRequest().required(BLOCK).sliceTopology(RACK).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x3"), d(1, "x5"), d(1, "x1"), d(1, "x2"))))
                .check();
    }

    /** "block preferred for podset; rack required for slices; BestFit". */
    @Test
    void blockPreferredForPodsetRackRequiredForSlicesBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().preferred(BLOCK).sliceTopology(RACK).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"), d(1, "x5"), d(2, "x4"))))
                .check();
    }

    /** "block required for podset; host required for slices; optimize last domain; BestFit". */
    @Test
    void blockRequiredForPodsetHostRequiredForSlicesOptimizeLastDomainBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "2", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().required(BLOCK).sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(2, "x1"), d(4, "x3"))))
                .check();
    }

    /** "block preferred for podset; host required for slices; 2 blocks with unbalanced subdomains; BestFit". */
    @Test
    void blockPreferredForPodsetHostRequiredForSlices2BlocksWithUnbalancedSubdomainsBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b2-r1-x6").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x6").allocatable("cpu", "6", "pods", "10").ready()))
                .podSet(podSet("main", 12).topologyRequest().preferred(BLOCK).sliceTopology(HOSTNAME).sliceSize(3).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(3, "x1"), d(3, "x3"), d(6, "x6"))))
                .check();
    }

    /** "block required for podset; rack required for slices; podset fits in a block, but slices do not fit in racks". */
    @Test
    void blockRequiredForPodsetRackRequiredForSlicesPodsetFitsInABlockButSlicesDoNotFitInRacks() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r2-x5").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x5").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r3-x1").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x1").allocatable("cpu", "2", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().required(BLOCK).sliceTopology(RACK).sliceSize(3).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 2 slice(s)"))
                .check();
    }

    /** "block required for podset; rack required for slices; only 1 out of 2 slices fit the topology". */
    @Test
    void blockRequiredForPodsetRackRequiredForSlicesOnly1OutOf2SlicesFitTheTopology() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r2-x5").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x5").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r3-x1").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r4-x6").label(BLOCK, "b1").label(RACK, "r4").label(HOSTNAME, "x6").allocatable("cpu", "1", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().required(BLOCK).sliceTopology(RACK).sliceSize(3).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" allows to fit only 1 out of 2 slice(s)"))
                .check();
    }

    /** "block required for podset; rack required for slices; podset fits in both blocks, but slices fit in only one block". */
    @Test
    void blockRequiredForPodsetRackRequiredForSlicesPodsetFitsInBothBlocksButSlicesFitInOnlyOneBlock() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r2-x5").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x5").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b1-r3-x1").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x1").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b2-r4-x6").label(BLOCK, "b2").label(RACK, "r4").label(HOSTNAME, "x6").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b2-r5-x2").label(BLOCK, "b2").label(RACK, "r5").label(HOSTNAME, "x2").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().required(BLOCK).sliceTopology(RACK).sliceSize(3).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(3, "x6"), d(3, "x2"))))
                .check();
    }

    /** "slice required topology level cannot be above the main required topology level". */
    @Test
    void sliceRequiredTopologyLevelCannotBeAboveTheMainRequiredTopologyLevel() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).sliceTopology(BLOCK).sliceSize(1).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("podset slice topology cloud.com/topology-block is above the podset topology kubernetes.io/hostname"))
                .check();
    }

    /** "slice size is required when slice topology is requested". */
    @Test
    void sliceSizeIsRequiredWhenSliceTopologyIsRequested() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(BLOCK).sliceTopology(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("slice topology requested, but slice size not provided"))
                .check();
    }

    /** "cannot request not existing slice topology". */
    @Test
    void cannotRequestNotExistingSliceTopology() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(BLOCK).sliceTopology("not-existing-topology-level").sliceSize(1).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("no requested topology level for slices: not-existing-topology-level"))
                .check();
    }

    /** "no topology for podset; host required for slices; BestFit". */
    @Test
    void noTopologyForPodsetHostRequiredForSlicesBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(2, "x1"), d(2, "x3"), d(2, "x5"))))
                .check();
    }

    /** "no topology for podset; host required for slices; multiple blocks; BestFit". */
    @Test
    void noTopologyForPodsetHostRequiredForSlicesMultipleBlocksBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(scatteredNodes())
                .podSet(podSet("main", 6).topologyRequest().sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(4, "x3"), d(2, "x6"))))
                .check();
    }

    /** "no topology for podset; rack required for slices; multiple blocks; BestFit". */
    @Test
    void noTopologyForPodsetRackRequiredForSlicesMultipleBlocksBestFit() {
        TasCase.levels(THREE_LEVELS)
                .nodes(defaultNodes())
                .podSet(podSet("main", 4).topologyRequest().sliceTopology(RACK).sliceSize(2).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"), d(1, "x5"), d(2, "x4"))))
                .check();
    }

    /** "find topology assignment for two podsets with overlapping domain". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithOverlappingDomain() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "2", "pods", "10").ready(),
                        node("b3").label(BLOCK, "b3").allocatable("cpu", "2", "pods", "10").ready()))
                .podSet(podSet("podset1", 3).topologyRequest().preferred(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(BLOCK), d(2, "b1"), d(1, "b2"))))
                .podSet(podSet("podset2", 3).topologyRequest().preferred(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(BLOCK), d(1, "b2"), d(2, "b3"))))
                .check();
    }

    /** "find topology assignment for two podsets with the same group". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroup() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "2", "example.com/gpu", "2", "memory", "2Gi", "pods", "10").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "5", "example.com/gpu", "4", "pods", "10").ready(),
                        node("b3").label(BLOCK, "b3").allocatable("cpu", "2", "example.com/gpu", "2", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(List.of(BLOCK), d(1, "b2"))))
                .podSet(podSet("workers", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(List.of(BLOCK), d(4, "b2"))))
                .check();
    }

    /** "find topology assignment for grouped podsets preserves worker capacity when placing leader". */
    @Test
    void findTopologyAssignmentForGroupedPodsetsPreservesWorkerCapacityWhenPlacingLeader() {
        TasCase.levels(List.of(RACK, HOSTNAME))
                .nodes(List.of(
                        node("h1").label(RACK, "r1").label(HOSTNAME, "h1").allocatable("cpu", "2", "pods", "10").ready(),
                        node("h2").label(RACK, "r1").label(HOSTNAME, "h2").allocatable("cpu", "4", "pods", "10").ready(),
                        node("h3").label(RACK, "r1").label(HOSTNAME, "h3").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "h3"))))
                .podSet(podSet("workers", 4).topologyRequest().required(RACK).requests(kueueRequests("cpu", 2000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "h1"), d(2, "h2"), d(1, "h3"))))
                .check();
    }

    /** "find topology assignment for sliced grouped podsets preserves worker capacity when placing leader". */
    @Test
    void findTopologyAssignmentForSlicedGroupedPodsetsPreservesWorkerCapacityWhenPlacingLeader() {
        TasCase.levels(List.of(RACK, HOSTNAME))
                .nodes(List.of(
                        node("h1").label(RACK, "r1").label(HOSTNAME, "h1").allocatable("cpu", "2", "pods", "10").ready(),
                        node("h2").label(RACK, "r1").label(HOSTNAME, "h2").allocatable("cpu", "4", "pods", "10").ready(),
                        node("h3").label(RACK, "r1").label(HOSTNAME, "h3").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "h3"))))
                .podSet(podSet("workers", 8).topologyRequest().required(RACK).sliceTopology(HOSTNAME).sliceSize(2).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(2, "h1"), d(4, "h2"), d(2, "h3"))))
                .check();
    }

    /** "find topology assignment for preferred grouped podsets preserves capacity across domains". */
    @Test
    void findTopologyAssignmentForPreferredGroupedPodsetsPreservesCapacityAcrossDomains() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("h1").label(HOSTNAME, "h1").allocatable("cpu", "8", "pods", "10").ready(),
                        node("h2").label(HOSTNAME, "h2").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().preferred(HOSTNAME).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "h2"))))
                .podSet(podSet("workers", 5).topologyRequest().preferred(HOSTNAME).requests(kueueRequests("cpu", 2000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(4, "h1"), d(1, "h2"))))
                .check();
    }

    /** "find topology assignment for unconstrained grouped podsets spreads leader and worker across domains with TASProfileMixed". */
    @Test
    void findTopologyAssignmentForUnconstrainedGroupedPodsetsSpreadsLeaderAndWorkerAcrossDomainsWithTASProfileMixed() {
        TasCase.levels(ONE_LEVEL)
                .nodes(List.of(
                        node("h1").label(HOSTNAME, "h1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("h2").label(HOSTNAME, "h2").allocatable("example.com/gpu", "1", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().unconstrained(true).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "h1"))))
                .podSet(podSet("workers", 1).topologyRequest().unconstrained(true).requests(kueueRequests("example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "h2"))))
                .check();
    }

    /** "find topology assignment for grouped podsets preserves leader below the slice level". */
    @Test
    void findTopologyAssignmentForGroupedPodsetsPreservesLeaderBelowTheSliceLevel() {
        TasCase.levels(List.of(RACK, HOSTNAME))
                .nodes(List.of(
                        node("leader-host").label(RACK, "r1").label(HOSTNAME, "leader-host").allocatable("cpu", "1", "pods", "10").ready(),
                        node("worker-host").label(RACK, "r1").label(HOSTNAME, "worker-host").allocatable("example.com/gpu", "1", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(RACK).sliceTopology(RACK).sliceSize(1).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "leader-host"))))
                .podSet(podSet("workers", 1).topologyRequest().required(RACK).sliceTopology(RACK).sliceSize(1).requests(kueueRequests("example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "worker-host"))))
                .check();
    }

    /** "find topology assignment for two podsets with the same group with domains that can tightly fit leader and workers". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroupWithDomainsThatCanTightlyFitLeaderAndWorkers() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "2", "example.com/gpu", "2", "pods", "10").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "8", "example.com/gpu", "8", "pods", "10").ready(),
                        node("b3").label(BLOCK, "b3").allocatable("cpu", "2", "example.com/gpu", "2", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(List.of(BLOCK), d(1, "b2"))))
                .podSet(podSet("workers", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 2L)).group("sameGroup")
                    .wants(assignment(List.of(BLOCK), d(4, "b2"))))
                .check();
    }

    /** "find topology assignment for grouped podsets skips domain where only workers fit without leader". */
    @Test
    void findTopologyAssignmentForGroupedPodsetsSkipsDomainWhereOnlyWorkersFitWithoutLeader() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("small-used").label(BLOCK, "b1").label(RACK, "small").label(HOSTNAME, "small-used").allocatable("cpu", "2800m", "pods", "10").ready(),
                        node("small-free").label(BLOCK, "b1").label(RACK, "small").label(HOSTNAME, "small-free").allocatable("cpu", "2800m", "pods", "10").ready(),
                        node("large-free").label(BLOCK, "b1").label(RACK, "large").label(HOSTNAME, "large-free").allocatable("cpu", "6", "pods", "10").ready()))
                .pods(pod("filler").on("small-used").phase("Running").request("cpu", "2500m"))
                .podSet(podSet("leader", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 2500L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "large-free"))))
                .podSet(podSet("workers", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 2500L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "large-free"))))
                .check();
    }

    /** "find topology assignment for grouped podsets skips domain where mixed-size workers only fit without leader". */
    @Test
    void findTopologyAssignmentForGroupedPodsetsSkipsDomainWhereMixedSizeWorkersOnlyFitWithoutLeader() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("small-used").label(BLOCK, "b1").label(RACK, "small").label(HOSTNAME, "small-used").allocatable("cpu", "2800m", "pods", "10").ready(),
                        node("small-free").label(BLOCK, "b1").label(RACK, "small").label(HOSTNAME, "small-free").allocatable("cpu", "2800m", "pods", "10").ready(),
                        node("large-free").label(BLOCK, "b1").label(RACK, "large").label(HOSTNAME, "large-free").allocatable("cpu", "6", "pods", "10").ready()))
                .pods(pod("filler").on("small-used").phase("Running").request("cpu", "2500m"))
                .podSet(podSet("leader", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 2500L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "large-free"))))
                .podSet(podSet("workers", 2).topologyRequest().required(RACK).requests(kueueRequests("cpu", 500L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(2, "large-free"))))
                .check();
    }

    /** "find topology assignment for grouped podsets keeps tight domain when leader and workers fit together". */
    @Test
    void findTopologyAssignmentForGroupedPodsetsKeepsTightDomainWhenLeaderAndWorkersFitTogether() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("small-used").label(BLOCK, "b1").label(RACK, "small").label(HOSTNAME, "small-used").allocatable("cpu", "2800m", "pods", "10").ready(),
                        node("small-free").label(BLOCK, "b1").label(RACK, "small").label(HOSTNAME, "small-free").allocatable("cpu", "2800m", "pods", "10").ready(),
                        node("large-free").label(BLOCK, "b1").label(RACK, "large").label(HOSTNAME, "large-free").allocatable("cpu", "6", "pods", "10").ready()))
                .pods(pod("filler").on("small-used").phase("Running").request("cpu", "2500m"))
                .podSet(podSet("leader", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "small-free"))))
                .podSet(podSet("workers", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "small-free"))))
                .check();
    }

    /** "find topology assignment for two podsets with the same group - no fit". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroupNoFit() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "1", "example.com/gpu", "0", "pods", "10").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "4", "example.com/gpu", "4", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wantsReason("topology \"default\" allows to fit only 4 out of 4 pod(s). Total nodes: 2; excluded: resource \"example.com/gpu\": 1"))
                .podSet(podSet("workers", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wantsReason("topology \"default\" allows to fit only 4 out of 4 pod(s). Total nodes: 2; excluded: resource \"example.com/gpu\": 1"))
                .check();
    }

    /** "find topology assignment for two podsets with the same group - optimizes domain for both leader and workers". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroupOptimizesDomainForBothLeaderAndWorkers() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "11", "example.com/gpu", "8", "pods", "10").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "4", "example.com/gpu", "4", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(List.of(BLOCK), d(1, "b1"))))
                .podSet(podSet("workers", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(List.of(BLOCK), d(4, "b1"))))
                .check();
    }

    /** "BestFit: podset group workers spread across hosts". */
    @Test
    void bestFitPodsetGroupWorkersSpreadAcrossHosts() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "20", "example.com/gpu", "4", "pods", "10").ready(),
                        node("b1-r1-x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "20", "example.com/gpu", "2", "pods", "10").ready(),
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "20", "example.com/gpu", "2", "pods", "10").ready(),
                        node("b1-r1-x4").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x4").allocatable("cpu", "20", "example.com/gpu", "2", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().preferred(BLOCK).requests(kueueRequests("cpu", 1000L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(1, "x1"))))
                .podSet(podSet("workers", 6).topologyRequest().preferred(BLOCK).sliceSize(2).sliceTopology(HOSTNAME).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(ONE_LEVEL, d(4, "x1"), d(2, "x2"))))
                .check();
    }

    /** "find topology assignment for two podsets with the same group - leader does not fit anywhere". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroupLeaderDoesNotFitAnywhere() {
        TasCase.levels(List.of(BLOCK))
                .nodes(List.of(
                        node("b1").label(BLOCK, "b1").allocatable("cpu", "4", "example.com/gpu", "4", "pods", "10").ready(),
                        node("b2").label(BLOCK, "b2").allocatable("cpu", "4", "example.com/gpu", "4", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 10000L)).group("sameGroup")
                    .wantsReason("topology \"default\" allows to fit only 4 out of 4 pod(s)"))
                .podSet(podSet("workers", 4).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wantsReason("topology \"default\" allows to fit only 4 out of 4 pod(s)"))
                .check();
    }

    /** "find topology assignment for two podsets with the same group - multiple hosts". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroupMultipleHosts() {
        TasCase.levels(List.of(BLOCK, RACK, HOSTNAME))
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r4-x6").label(BLOCK, "b2").label(RACK, "r4").label(HOSTNAME, "x6").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r5-x2").label(BLOCK, "b2").label(RACK, "r5").label(HOSTNAME, "x2").allocatable("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r6-x4").label(BLOCK, "b2").label(RACK, "r6").label(HOSTNAME, "x4").allocatable("cpu", "2", "pods", "10", "example.com/gpu", "1").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 2000L)).group("sameGroup")
                    .wants(assignment(List.of(HOSTNAME), d(1, "x1"))))
                .podSet(podSet("workers", 2).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(List.of(HOSTNAME), d(1, "x3"), d(1, "x5"))))
                .check();
    }

    /** "find topology assignment for two podsets with the same group requesting same resources and nodes in the same rack". */
    @Test
    void findTopologyAssignmentForTwoPodsetsWithTheSameGroupRequestingSameResourcesAndNodesInTheSameRack() {
        TasCase.levels(List.of(BLOCK, RACK, HOSTNAME))
                .nodes(List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b1-r2-x1").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b1-r2-x6").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x6").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r3-x2").label(BLOCK, "b2").label(RACK, "r3").label(HOSTNAME, "x2").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r3-x4").label(BLOCK, "b2").label(RACK, "r3").label(HOSTNAME, "x4").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r4-x7").label(BLOCK, "b2").label(RACK, "r4").label(HOSTNAME, "x7").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
                        node("b2-r4-x8").label(BLOCK, "b2").label(RACK, "r4").label(HOSTNAME, "x8").allocatable("cpu", "1", "pods", "10", "example.com/gpu", "1").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(List.of(HOSTNAME), d(1, "x3"))))
                .podSet(podSet("workers", 2).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L, "example.com/gpu", 1L)).group("sameGroup")
                    .wants(assignment(List.of(HOSTNAME), d(1, "x5"), d(1, "x1"))))
                .check();
    }

    /** "multiple podsets: rack required for both, different resource requests; BestFit". */
    @Test
    void multiplePodsetsRackRequiredForBothDifferentResourceRequestsBestFit() {
        TasCase.levels(TWO_LEVELS)
                .nodes(multipodNodeset())
                .podSet(podSet("podset1", 2).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(TWO_LEVELS, d(2, "b1", "r1"))))
                .podSet(podSet("podset2", 1).topologyRequest().required(RACK).requests(kueueRequests("memory", 1024L))
                    .wants(assignment(TWO_LEVELS, d(1, "b1", "r1"))))
                .check();
    }

    /** "multiple podsets: block required for one, unconstrained for another; TASProfileMixed". */
    @Test
    void multiplePodsetsBlockRequiredForOneUnconstrainedForAnotherTASProfileMixed() {
        TasCase.levels(THREE_LEVELS)
                .nodes(multipodNodeset())
                .podSet(podSet("podset1", 8).topologyRequest().required(BLOCK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(HOSTNAME), d(8, "x2"))))
                .podSet(podSet("podset2", 2).topologyRequest().unconstrained(true).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(HOSTNAME), d(2, "x2"))))
                .check();
    }

    /** "temporary state cleanup prevents leakage across PodSets". */
    @Test
    void temporaryStateCleanupPreventsLeakageAcrossPodSets() {
        TasCase.levels(List.of(HOSTNAME))
                .nodes(List.of(
                        node("n1").label(HOSTNAME, "x1").allocatable("cpu", "4", "memory", "4Gi", "pods", "10").ready(),
                        node("n2").label(HOSTNAME, "x2").allocatable("cpu", "4", "memory", "4Gi", "pods", "10").ready()))
                .podSet(podSet("ps1", 1).requests(kueueRequests("cpu", 1000L, "memory", 1000L))
                    .wants(assignment(List.of(HOSTNAME), d(1, "x1"))))
                .podSet(podSet("ps2", 1).nodeSelector(Map.of("never", "match")).requests(kueueRequests("cpu", 1000L, "memory", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: nodeSelector: 2"))
                .check();
    }

    /** "multi-layer topology: block required; rack slices of 4; host slices of 2; TASMultiLayerTopology". */
    @Test
    void multiLayerTopologyBlockRequiredRackSlicesOf4HostSlicesOf2TASMultiLayerTopology() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r1-x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r2-x3").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r2-x4").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x4").allocatable("cpu", "4", "pods", "10").ready()))
                .podSet(podSet("main", 8).topologyRequest().required(BLOCK).sliceConstraints(new SliceConstraint(RACK, 4), new SliceConstraint(HOSTNAME, 2)).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(4, "x2"), d(2, "x3"), d(2, "x4"))))
                .check();
    }

    /** "multi-layer topology: no feature gate; additional layers ignored". */
    @Test
    void multiLayerTopologyNoFeatureGateAdditionalLayersIgnored() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("b1-r1-x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r2-x3").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x3").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r2-x4").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x4").allocatable("cpu", "4", "pods", "10").ready()))
                .podSet(podSet("main", 8).topologyRequest().required(BLOCK).sliceTopology(RACK).sliceSize(4).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"), d(3, "x2"), d(3, "x3"), d(1, "x4"))))
                .check();
    }

    /** "multi-layer topology: host slice rounding makes rack slice impossible". */
    @Test
    void multiLayerTopologyHostSliceRoundingMakesRackSliceImpossible() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "3", "pods", "10").ready(),
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "0", "pods", "10").ready()))
                .podSet(podSet("main", 6).topologyRequest().required(BLOCK).sliceConstraints(new SliceConstraint(RACK, 6), new SliceConstraint(HOSTNAME, 2)).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit; 0/1 slice(s) fit on level cloud.com/topology-rack; 2/3 slice(s) fit on level kubernetes.io/hostname. Total nodes: 3; excluded: resource \"cpu\": 1"))
                .check();
    }

    /** "multi-layer topology: small host kills rack slices despite enough total capacity". */
    @Test
    void multiLayerTopologySmallHostKillsRackSlicesDespiteEnoughTotalCapacity() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "7", "pods", "10").ready(),
                        node("b1-r1-x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r2-x3").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x3").allocatable("cpu", "7", "pods", "10").ready(),
                        node("b1-r2-x4").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x4").allocatable("cpu", "3", "pods", "10").ready()))
                .podSet(podSet("main", 16).topologyRequest().required(BLOCK).sliceConstraints(new SliceConstraint(RACK, 8), new SliceConstraint(HOSTNAME, 4)).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit; 1/2 slice(s) fit on level cloud.com/topology-rack; 3/4 slice(s) fit on level kubernetes.io/hostname"))
                .check();
    }

    /** "multi-layer topology: enough hostname slices but not enough rack slices". */
    @Test
    void multiLayerTopologyEnoughHostnameSlicesButNotEnoughRackSlices() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r2-x2").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x2").allocatable("cpu", "4", "pods", "10").ready(),
                        node("b1-r3-x3").label(BLOCK, "b1").label(RACK, "r3").label(HOSTNAME, "x3").allocatable("cpu", "4", "pods", "10").ready()))
                .podSet(podSet("main", 12).topologyRequest().required(BLOCK).sliceConstraints(new SliceConstraint(RACK, 6), new SliceConstraint(HOSTNAME, 2)).requests(kueueRequests("cpu", 1000L))
                    .wantsReason("topology \"default\" doesn't allow to fit; 0/2 slice(s) fit on level cloud.com/topology-rack; 6/6 slice(s) fit on level kubernetes.io/hostname"))
                .check();
    }

    /** "optimize the last domain for LWS using BestFit". */
    @Test
    void optimizeTheLastDomainForLWSUsingBestFit() {
        TasCase.levels(List.of("cloud.com/topology-zone", "cloud.com/topology-rack", HOSTNAME))
                .nodes(List.of(
                        node("dom1-node").label("cloud.com/topology-zone", "dom1").label("cloud.com/topology-rack", "rack1").label(HOSTNAME, "dom1-node").allocatable("cpu", "10", "memory", "10Gi", "pods", "10").ready(),
                        node("dom2-node").label("cloud.com/topology-zone", "dom2").label("cloud.com/topology-rack", "rack2").label(HOSTNAME, "dom2-node").allocatable("cpu", "6", "memory", "10Gi", "pods", "10").ready()))
                .podSet(podSet("leader", 1).topologyRequest().required("cloud.com/topology-zone").sliceTopology("cloud.com/topology-rack").sliceSize(1).requests(kueueRequests("cpu", 1000L, "memory", (long) ((1024 * 1024) * 1024))).group("lws")
                    .wants(assignment(List.of(HOSTNAME), d(1, "dom2-node"))))
                .podSet(podSet("workers", 5).topologyRequest().required("cloud.com/topology-zone").sliceTopology("cloud.com/topology-rack").sliceSize(1).requests(kueueRequests("cpu", 1000L, "memory", (long) ((1024 * 1024) * 1024))).group("lws")
                    .wants(assignment(List.of(HOSTNAME), d(5, "dom2-node"))))
                .check();
    }

    /** "non-hostname-leaf topology: nil aggregatedDomainUsages preserves per-flavor behavior". */
    @Test
    void nonHostnameLeafTopologyNilAggregatedDomainUsagesPreservesPerFlavorBehavior() {
        TasCase.levels(List.of(BLOCK, RACK))
                .nodeLabels(Map.of())
                .nodes(defaultNodes())
                .podSet(podSet("main", 1).topologyRequest().required(RACK).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(List.of(BLOCK, RACK), d(1, "b1", "r1"))))
                .check();
    }

    /** "stable tie break on identical nodes: TASBalancedPlacement disabled". */
    @Test
    void stableTieBreakOnIdenticalNodesTASBalancedPlacementDisabled() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "1", "pods", "10").ready(),
                        node("x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"))))
                .check();
    }

    /** "stable tie break on identical nodes: reversed order, TASBalancedPlacement disabled". */
    @Test
    void stableTieBreakOnIdenticalNodesReversedOrderTASBalancedPlacementDisabled() {
        TasCase.levels(THREE_LEVELS)
                .nodes(List.of(
                        node("x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "1", "pods", "10").ready(),
                        node("x2").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "1", "pods", "10").ready()))
                .podSet(podSet("main", 1).topologyRequest().required(HOSTNAME).requests(kueueRequests("cpu", 1000L))
                    .wants(assignment(ONE_LEVEL, d(1, "x1"))))
                .check();
    }

    // ---- Kueue's shared node sets

    static List<TasCase.NodeBuilder> defaultNodes() {
        return List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x5").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x5").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x1").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x1").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x6").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x6").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r2-x2").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r2-x4").label(BLOCK, "b2").label(RACK, "r2").label(HOSTNAME, "x4").allocatable("cpu", "2", "memory", "4Gi", "pods", "40").ready());
    }

    static List<TasCase.NodeBuilder> scatteredNodes() {
        return List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "4", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r1-x1").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x1").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r1-x6").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x6").allocatable("cpu", "2", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r1-x2").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready());
    }

    static List<TasCase.NodeBuilder> multipodNodeset() {
        return List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "10", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x5").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x5").allocatable("cpu", "10", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x1").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x1").allocatable("cpu", "10", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x6").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x6").allocatable("cpu", "10", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r1-x2").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "10", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r2-x4").label(BLOCK, "b2").label(RACK, "r2").label(HOSTNAME, "x4").allocatable("cpu", "20", "memory", "4Gi", "pods", "40").ready());
    }

    static List<TasCase.NodeBuilder> binaryTreesNodes() {
        return List.of(
                        node("b1-r1-x3").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x3").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r1-x5").label(BLOCK, "b1").label(RACK, "r1").label(HOSTNAME, "x5").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x1").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x1").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b1-r2-x6").label(BLOCK, "b1").label(RACK, "r2").label(HOSTNAME, "x6").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r1-x2").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x2").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r1-x4").label(BLOCK, "b2").label(RACK, "r1").label(HOSTNAME, "x4").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r2-x7").label(BLOCK, "b2").label(RACK, "r2").label(HOSTNAME, "x7").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
                        node("b2-r2-x8").label(BLOCK, "b2").label(RACK, "r2").label(HOSTNAME, "x8").allocatable("cpu", "1", "memory", "1Gi", "pods", "10").ready());
    }
}
