package dev.sluice.controller.tas;

import static dev.sluice.controller.tas.UngateCase.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.engine.tas.Topology;
import dev.sluice.jobs.WellKnown;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19.2's pkg/controller/tas/topology_ungater_test.go TestReconcile, case by case (its names), on the
 * planner: the pods after the ungater's patches are compared as Kueue compares them, by node selector counts
 * ({@code nodeSelectorAssertCountsOnly}) or pod by pod ({@code nodeSelectorAssertExact}). The cases about the Workload
 * (no admission, admitted without topology) are in {@link UngateInputsTest}; the pending-expectations case in
 * {@link UngateExpectationsTest}.
 */
class KueueTopologyUngaterCasesTest {

    private static List<TasPod> after(List<UngatePlan.PodSetInput> podSets, Set<String> unhealthy, List<TasPod> pods) {
        return apply(pods, UngatePlan.plan("unit-test", podSets, unhealthy, pods));
    }

    private static List<TasPod> after(UngatePlan.PodSetInput podSet, List<TasPod> pods) {
        return after(List.of(podSet), none(), pods);
    }

    private static Map<String, String> host(String h) {
        return new TreeMap<>(Map.of(Topology.HOSTNAME, h));
    }

    @Test
    @DisplayName("ungate single pod")
    void ungateSinglePod() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null), pods(pod("pod").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
    }

    @Test
    @DisplayName("does not ungate a replacement pod onto the unhealthy domain of a two-pod group")
    void doesNotUngateAReplacementPodOntoTheUnhealthyDomainOfATwoPodGroup() {
        var ta = assignment(List.of(Topology.HOSTNAME), domain(1, "x1"), domain(1, "x2"));
        var got = after(List.of(podSet(MAIN, 2, ta, null)), Set.of("x1"), pods(
                pod("pod-survivor").selector(Topology.HOSTNAME, "x2"),
                pod("pod-replacement").gated()));
        assertEquals(Map.of(host("x2"), 1), counts(got));
        assertEquals("gated", exact(got).get("pod-replacement"));
    }

    @Test
    @DisplayName("does not ungate a pod onto a node marked unhealthy")
    void doesNotUngateAPodOntoANodeMarkedUnhealthy() {
        var ta = assignment(List.of(Topology.HOSTNAME), domain(1, "x1"));
        var got = after(List.of(podSet(MAIN, 1, ta, null)), Set.of("x1"), pods(pod("pod").gated()));
        assertEquals(Map.of(), counts(got));
    }

    @Test
    @DisplayName("ungate single pod with sub group index label but no sub group count")
    void ungateSinglePodWithSubGroupIndexLabelButNoSubGroupCount() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), ranked(JOB_INDEX, JOBSET_JOB_INDEX, null, null)),
                pods(pod("pod").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
    }

    @Test
    @DisplayName("ungate single pod with sub group index label but zero sub group count")
    void ungateSinglePodWithSubGroupIndexLabelButZeroSubGroupCount() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), ranked(JOB_INDEX, JOBSET_JOB_INDEX, 0, null)),
                pods(pod("pod").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
    }

    @Test
    @DisplayName("ungate multiple pods in a single domain")
    void ungateMultiplePodsInASingleDomain() {
        var got = after(podSet(MAIN, 3, assignment(domain(3, "b1", "r1")), null),
                pods(pod("pod1").gated(), pod("pod2").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 2), counts(got));
    }

    @Test
    @DisplayName("ungate multiple pods across multiple domains")
    void ungateMultiplePodsAcrossMultipleDomains() {
        var got = after(podSet(MAIN, 2, assignment(domain(1, "b1", "r1"), domain(1, "b1", "r2")), null),
                pods(pod("pod1").gated(), pod("pod2").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1, sel("b1", "r2"), 1), counts(got));
    }

    @Test
    @DisplayName("workload admitted but without topology assignment - pod remains gated")
    void workloadAdmittedButWithoutTopologyAssignmentPodRemainsGated() {
        var got = after(podSet(MAIN, 2, null, null), pods(pod("pod1").gated()));
        assertEquals(Map.of(), counts(got));
    }

    @Test
    @DisplayName("workload admitted by TAS with single pod without the Workload annotation - Pod remains gated")
    void workloadAdmittedByTasWithSinglePodWithoutTheWorkloadAnnotationPodRemainsGated() {
        P p = pod("pod").gated();
        p.annotations.remove(WellKnown.WORKLOAD);
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null), pods(p));
        assertEquals(Map.of(), counts(got));
    }

    @Test
    @DisplayName("workload admitted by TAS with single pod without the PodSet label - Pod remains gated")
    void workloadAdmittedByTasWithSinglePodWithoutThePodSetLabelPodRemainsGated() {
        P p = pod("pod").gated();
        p.labels.remove(WellKnown.POD_SET);
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null), pods(p));
        assertEquals(Map.of(), counts(got));
    }

    @Test
    @DisplayName("workload admitted by TAS with single pod without topology gate, remains gated by another gate")
    void workloadAdmittedByTasWithSinglePodWithoutTopologyGateRemainsGatedByAnotherGate() {
        // the other gate is the Pod's own business: the ungater sees no topology gate and changes nothing
        List<TasPod> pods = pods(pod("pod").on("b1", "r1"));
        assertEquals(List.of(), UngatePlan.plan("unit-test",
                List.of(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null)), none(), pods));
    }

    @Test
    @DisplayName("workload admitted by TAS with single pod with topology gate and another gate, ungated, but remains gated by another gate")
    void workloadAdmittedByTasWithSinglePodWithTopologyGateAndAnotherGateUngatedButRemainsGatedByAnotherGate() {
        // the patch removes only the topology gate (TopologyUngaterTest checks the other stays)
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null), pods(pod("pod").gated()));
        assertEquals(Map.of("pod", sel("b1", "r1")), exact(got));
    }

    @Test
    @DisplayName("expect single pod; one already running - don't ungate second pod")
    void expectSinglePodOneAlreadyRunningDontUngateSecondPod() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null),
                pods(pod("pod-already-running").on("b1", "r1"), pod("pod-gated").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
        assertEquals("gated", exact(got).get("pod-gated"));
    }

    @Test
    @DisplayName("expect single pod; one ungated pod failed - ungate second pod")
    void expectSinglePodOneUngatedPodFailedUngateSecondPod() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null),
                pods(pod("pod-already-running").on("b1", "r1").terminated(), pod("pod-gated").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
        assertEquals(sel("b1", "r1"), exact(got).get("pod-gated"));
    }

    @Test
    @DisplayName("two pods, one already ungated, second to ungate")
    void twoPodsOneAlreadyUngatedSecondToUngate() {
        var got = after(podSet(MAIN, 2, assignment(domain(2, "b1", "r1")), null),
                pods(pod("pod1").uid("x").on("b1", "r1"), pod("pod2").uid("y").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 2), counts(got));
    }

    @Test
    @DisplayName("expect single pod; one ungated pod succeeded - ungate second pod")
    void expectSinglePodOneUngatedPodSucceededUngateSecondPod() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null),
                pods(pod("pod-already-succeeded").on("b1", "r1").terminated(), pod("pod-gated").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
        assertEquals(sel("b1", "r1"), exact(got).get("pod-gated"));
    }

    @Test
    @DisplayName("ungate replacement pod for unhealthy node")
    void ungateReplacementPodForUnhealthyNode() {
        var got = after(podSet(MAIN, 2, assignment(domain(1, "b1", "r1"), domain(1, "b1", "r2")),
                ranked(JOB_INDEX, JOBSET_JOB_INDEX, 1, null)), pods(
                pod("p1-running").uid("x").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "0").on("b1", "r1"),
                pod("p0-replacement").uid("y").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").gated()));
        // rank 0's domain is taken by the pod of rank 1: greedy, which gives the replacement the free domain
        assertEquals(Map.of("p0-replacement", sel("b1", "r2"), "p1-running", sel("b1", "r1")), exact(got));
    }

    private static final UngatePlan.PodSetInput JOB5 = podSet(MAIN, 5,
            assignment(domain(2, "b1", "r1"), domain(1, "b1", "r2"), domain(2, "b2", "r1")), ranked(JOB_INDEX, null, null, null));

    @Test
    @DisplayName("ranks: ungate pods according to their ranks for batch/Job - some Pods already scheduled")
    void ranksUngatePodsAccordingToTheirRanksForBatchJobSomePodsAlreadyScheduled() {
        var got = after(JOB5, pods(
                pod("p0").label(JOB_INDEX, "0").on("b1", "r1"),
                pod("p1").label(JOB_INDEX, "1").gated(),
                pod("p2").label(JOB_INDEX, "2").gated(),
                pod("p3").label(JOB_INDEX, "3").on("b2", "r1"),
                pod("p4").label(JOB_INDEX, "4").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r1"), "p2", sel("b1", "r2"), "p3", sel("b2", "r1"),
                "p4", sel("b2", "r1")), exact(got));
    }

    private static List<UngatePlan.PodSetInput> lws() {
        return List.of(
                podSet("workers", 4, assignment(domain(1, "b1", "r1"), domain(1, "b1", "r2"), domain(2, "b2", "r1")),
                        ranked(LWS_WORKER_INDEX, null, null, "lws-group")),
                podSet("leader", 1, assignment(domain(1, "b1", "r1")), ranked(LWS_WORKER_INDEX, null, null, "lws-group")));
    }

    @Test
    @DisplayName("ranks: ungate pods according to their ranks for LeaderWorkerSet - for all Pods")
    void ranksUngatePodsAccordingToTheirRanksForLeaderWorkerSetForAllPods() {
        var got = after(lws(), none(), pods(
                pod("p0").label(LWS_WORKER_INDEX, "0").podSet("leader").gated(),
                pod("p1").label(LWS_WORKER_INDEX, "2").podSet("workers").gated(),
                pod("p2").label(LWS_WORKER_INDEX, "1").podSet("workers").gated(),
                pod("p3").label(LWS_WORKER_INDEX, "3").podSet("workers").gated(),
                pod("p4").label(LWS_WORKER_INDEX, "4").podSet("workers").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r2"), "p2", sel("b1", "r1"), "p3", sel("b2", "r1"),
                "p4", sel("b2", "r1")), exact(got));
    }

    @Test
    @DisplayName("ranks: ungate pods according to their ranks for batch/Job - for all Pods")
    void ranksUngatePodsAccordingToTheirRanksForBatchJobForAllPods() {
        var got = after(JOB5, pods(
                pod("p0").label(JOB_INDEX, "0").gated(),
                pod("p1").label(JOB_INDEX, "1").gated(),
                pod("p2").label(JOB_INDEX, "2").gated(),
                pod("p3").label(JOB_INDEX, "3").gated(),
                pod("p4").label(JOB_INDEX, "4").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r1"), "p2", sel("b1", "r2"), "p3", sel("b2", "r1"),
                "p4", sel("b2", "r1")), exact(got));
    }

    @Test
    @DisplayName("ranks: gracefully handle situation with ranks going below 0")
    void ranksGracefullyHandleSituationWithRanksGoingBelow0() {
        var got = after(lws(), none(), pods(
                pod("p0").label(LWS_WORKER_INDEX, "0").podSet("leader").gated(),
                pod("p1").label(LWS_WORKER_INDEX, "0").podSet("workers").gated(),
                pod("p2").label(LWS_WORKER_INDEX, "1").podSet("workers").gated(),
                pod("p3").label(LWS_WORKER_INDEX, "2").podSet("workers").gated(),
                pod("p4").label(LWS_WORKER_INDEX, "3").podSet("workers").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r1"), "p2", sel("b1", "r2"), "p3", sel("b2", "r1"),
                "p4", sel("b2", "r1")), exact(got));
    }

    @Test
    @DisplayName("ranks: gracefully handle situation with repeated ranks")
    void ranksGracefullyHandleSituationWithRepeatedRanks() {
        var got = after(podSet(MAIN, 4, assignment(domain(2, "b1", "r1"), domain(1, "b1", "r2"), domain(1, "b2", "r1")), null),
                pods(pod("p0").label(JOB_INDEX, "0").gated(), pod("p1").label(JOB_INDEX, "1").gated(),
                        pod("p2").label(JOB_INDEX, "0").gated(), pod("p3").label(JOB_INDEX, "1").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 2, sel("b1", "r2"), 1, sel("b2", "r1"), 1), counts(got));
    }

    @Test
    @DisplayName("ranks: gracefully handle situation when parallelism < completions")
    void ranksGracefullyHandleSituationWhenParallelismLessThanCompletions() {
        var got = after(podSet(MAIN, 1, assignment(domain(1, "b1", "r1")), null), pods(
                pod("p0").label(JOB_INDEX, "0").on("b1", "r1").terminated(),
                pod("p1").label(JOB_INDEX, "1").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r1")), exact(got));
    }

    private static final UngatePlan.PodSetInput JOBSET4 = podSet(MAIN, 4,
            assignment(domain(2, "b1", "r1"), domain(1, "b1", "r2"), domain(1, "b2", "r1")),
            ranked(JOB_INDEX, JOBSET_JOB_INDEX, 2, null));

    @Test
    @DisplayName("ranks: support rank-based ordering for JobSet - for all Pods")
    void ranksSupportRankBasedOrderingForJobSetForAllPods() {
        var got = after(JOBSET4, pods(
                pod("p0").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").gated(),
                pod("p1").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "0").gated(),
                pod("p2").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "1").gated(),
                pod("p3").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "1").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r1"), "p2", sel("b1", "r2"), "p3", sel("b2", "r1")),
                exact(got));
    }

    @Test
    @DisplayName("ranks: support rank-based ordering for JobSet - some Pods already scheduled")
    void ranksSupportRankBasedOrderingForJobSetSomePodsAlreadyScheduled() {
        var got = after(JOBSET4, pods(
                pod("p0").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").gated(),
                pod("p1").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "0").on("b1", "r1"),
                pod("p2").label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "1").on("b1", "r2"),
                pod("p3").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "1").gated()));
        assertEquals(Map.of("p0", sel("b1", "r1"), "p1", sel("b1", "r1"), "p2", sel("b1", "r2"), "p3", sel("b2", "r1")),
                exact(got));
    }

    @Test
    @DisplayName("ranks: support rank-based ordering for JobSet - only subset of pods is observed so far")
    void ranksSupportRankBasedOrderingForJobSetOnlySubsetOfPodsIsObservedSoFar() {
        var got = after(JOBSET4, pods(
                pod("p1").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "0").gated(),
                pod("p3").label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "1").gated()));
        assertEquals(Map.of("p1", sel("b1", "r1"), "p3", sel("b2", "r1")), exact(got));
    }

    private static List<UngatePlan.PodSetInput> mpi() {
        return List.of(
                podSet("launcher", 1, assignment(domain(1, "b1", "r1")), ranked(KF_REPLICA_INDEX, null, null, "mpijob-group")),
                podSet("worker", 3, assignment(domain(1, "b1", "r1"), domain(1, "b1", "r2"), domain(1, "b2", "r1")),
                        ranked(KF_REPLICA_INDEX, null, null, "mpijob-group")));
    }

    @Test
    @DisplayName("ranks: support rank-based ordering for kubeflow with valid offset annotation - for all Pods")
    void ranksSupportRankBasedOrderingForKubeflowWithValidOffsetAnnotationForAllPods() {
        var got = after(mpi(), none(), pods(
                pod("l0").label(KF_ROLE, "launcher").label(KF_REPLICA_INDEX, "0").podSet("launcher").gated(),
                pod("w1").annotation(WellKnown.POD_INDEX_OFFSET, "1").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "1")
                        .podSet("worker").gated(),
                pod("w2").annotation(WellKnown.POD_INDEX_OFFSET, "1").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "2")
                        .podSet("worker").gated(),
                pod("w3").annotation(WellKnown.POD_INDEX_OFFSET, "1").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "3")
                        .podSet("worker").gated()));
        assertEquals(Map.of("l0", sel("b1", "r1"), "w1", sel("b1", "r1"), "w2", sel("b1", "r2"), "w3", sel("b2", "r1")),
                exact(got));
    }

    @Test
    @DisplayName("ranks: out-of-range pod index falls back to greedy assignment")
    void ranksOutOfRangePodIndexFallsBackToGreedyAssignment() {
        var ps = podSet("worker", 2, assignment(domain(1, "b1", "r1"), domain(1, "b1", "r2")), ranked(JOB_INDEX, null, null, null));
        var got = after(ps, pods(
                pod("w1").annotation(WellKnown.POD_INDEX_OFFSET, "1").podSet("worker").label(JOB_INDEX, "1").on("b1", "r1"),
                pod("w2").annotation(WellKnown.POD_INDEX_OFFSET, "1").podSet("worker").label(JOB_INDEX, "2").on("b1", "r2"),
                pod("stray").annotation(WellKnown.POD_INDEX_OFFSET, "1").podSet("worker").label(JOB_INDEX, "3").gated()));
        assertEquals(Map.of("stray", "gated", "w1", sel("b1", "r1"), "w2", sel("b1", "r2")), exact(got));
    }

    @Test
    @DisplayName("ranks: TopologyAssignment shorter than the PodSet count falls back to greedy assignment")
    void ranksTopologyAssignmentShorterThanThePodSetCountFallsBackToGreedyAssignment() {
        var ps = podSet("worker", 2, assignment(domain(1, "b1", "r1")), ranked(JOB_INDEX, null, null, null));
        var got = after(ps, pods(pod("w1").podSet("worker").label(JOB_INDEX, "1").gated()));
        assertEquals(Map.of(sel("b1", "r1"), 1), counts(got));
    }

    @Test
    @DisplayName("ranks: support rank-based ordering for kubeflow with invalid offset annotation - for all Pods")
    void ranksSupportRankBasedOrderingForKubeflowWithInvalidOffsetAnnotationForAllPods() {
        List<TasPod> pods = pods(
                pod("l0").label(KF_ROLE, "launcher").label(KF_REPLICA_INDEX, "0").podSet("launcher").gated(),
                pod("w0").annotation(WellKnown.POD_INDEX_OFFSET, "invalid").label(KF_ROLE, "worker")
                        .label(KF_REPLICA_INDEX, "0").podSet("worker").gated(),
                pod("w1").annotation(WellKnown.POD_INDEX_OFFSET, "invalid").label(KF_ROLE, "worker")
                        .label(KF_REPLICA_INDEX, "1").podSet("worker").gated(),
                pod("w2").annotation(WellKnown.POD_INDEX_OFFSET, "invalid").label(KF_ROLE, "worker")
                        .label(KF_REPLICA_INDEX, "2").podSet("worker").gated());
        // Kueue returns errParseOffsetAnnotation and ungates none, the launcher neither
        assertThrows(UngatePlan.BadOffsetException.class, () -> UngatePlan.plan("unit-test", mpi(), none(), pods));
    }

    private static final UngatePlan.PodSetInput KF4 = podSet(MAIN, 4,
            assignment(domain(2, "b1", "r1"), domain(1, "b1", "r2"), domain(1, "b2", "r1")),
            ranked(KF_REPLICA_INDEX, null, null, null));

    @Test
    @DisplayName("ranks: support rank-based ordering for kubeflow - for all Pods")
    void ranksSupportRankBasedOrderingForKubeflowForAllPods() {
        var got = after(KF4, pods(
                pod("l0").label(KF_ROLE, "launcher").gated(),
                pod("w0").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "0").gated(),
                pod("w1").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "1").gated(),
                pod("w2").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "2").gated()));
        // the launcher has no index label: greedy, in creation (here name) order
        assertEquals(Map.of("l0", sel("b1", "r1"), "w0", sel("b1", "r1"), "w1", sel("b1", "r2"), "w2", sel("b2", "r1")),
                exact(got));
    }

    @Test
    @DisplayName("ranks: support rank-based ordering for kubeflow - some Pods already scheduled")
    void ranksSupportRankBasedOrderingForKubeflowSomePodsAlreadyScheduled() {
        var got = after(KF4, pods(
                pod("l0").label(KF_ROLE, "launcher").gated(),
                pod("w0").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "0").gated(),
                pod("w1").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "1").on("b1", "r1"),
                pod("w2").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, "2").on("b1", "r2")));
        assertEquals(Map.of("l0", sel("b1", "r1"), "w0", sel("b2", "r1"), "w1", sel("b1", "r1"), "w2", sel("b1", "r2")),
                exact(got));
    }

    private static final UngatePlan.PodSetInput GROUP4 = podSet(MAIN, 4,
            assignment(domain(2, "b1", "r1"), domain(1, "b1", "r2"), domain(1, "b2", "r1")),
            ranked(POD_GROUP_INDEX, null, null, null));

    @Test
    @DisplayName("ranks: support rank-based ordering for pod groups - for all Pods")
    void ranksSupportRankBasedOrderingForPodGroupsForAllPods() {
        var got = after(GROUP4, pods(
                pod("w0").label(POD_GROUP_INDEX, "0").gated(), pod("w1").label(POD_GROUP_INDEX, "1").gated(),
                pod("w2").label(POD_GROUP_INDEX, "2").gated(), pod("w3").label(POD_GROUP_INDEX, "3").gated()));
        assertEquals(Map.of("w0", sel("b1", "r1"), "w1", sel("b1", "r1"), "w2", sel("b1", "r2"), "w3", sel("b2", "r1")),
                exact(got));
    }

    @Test
    @DisplayName("ranks: support rank-based ordering for pod groups - some Pods already scheduled")
    void ranksSupportRankBasedOrderingForPodGroupsSomePodsAlreadyScheduled() {
        var got = after(GROUP4, pods(
                pod("w0").label(POD_GROUP_INDEX, "0").gated(), pod("w1").label(POD_GROUP_INDEX, "1").on("b1", "r1"),
                pod("w2").label(POD_GROUP_INDEX, "2").gated(), pod("w3").label(POD_GROUP_INDEX, "3").on("b2", "r1")));
        assertEquals(Map.of("w0", sel("b1", "r1"), "w1", sel("b1", "r1"), "w2", sel("b1", "r2"), "w3", sel("b2", "r1")),
                exact(got));
    }

    @Test
    void greedyOrderIsCreationOrderNotName() {
        // a kind without index labels: the earlier pod takes the first domain (Kueue: the order its cache lists them)
        List<TasPod> pods = List.of(
                new TasPod("a-late", "u1", Map.of(WellKnown.POD_SET, MAIN), Map.of(WellKnown.WORKLOAD, "unit-test"),
                        Map.of(), true, false, "2026-12-02T16:00:05Z"),
                new TasPod("z-early", "u2", Map.of(WellKnown.POD_SET, MAIN), Map.of(WellKnown.WORKLOAD, "unit-test"),
                        Map.of(), true, false, "2026-12-02T16:00:01Z"));
        var got = apply(pods, UngatePlan.plan("unit-test",
                List.of(podSet(MAIN, 2, assignment(domain(1, "b1", "r1"), domain(1, "b1", "r2")), null)), none(), pods));
        assertEquals(Map.of("a-late", sel("b1", "r2"), "z-early", sel("b1", "r1")), exact(got));
    }
}
