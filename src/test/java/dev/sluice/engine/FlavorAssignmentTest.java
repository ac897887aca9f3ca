package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlavorAssignmentTest {

    private static Engine engine(ClusterQueueSpec cq, FlavorSpec... flavors) {
        Engine e = new Engine();
        for (FlavorSpec f : flavors) {
            e.upsertFlavor(f);
        }
        e.upsertClusterQueue(cq);
        e.upsertLocalQueue(lq("default", "lq", cq.name()));
        return e;
    }

    private static WorkloadSpec selecting(String name, Map<String, String> selector, List<Toleration> tolerations,
                                          long gpus) {
        return new WorkloadSpec(key(name), "uid-" + name, "lq", 0, 0, List.of(new PodSetSpec("main", 1, null,
                Map.of("gpu", units(gpus)), selector, List.of(), tolerations)), true);
    }

    private static String flavorOf(CycleResult r) {
        return r.admissions().get(0).assignment().podSets().get(0).flavors().get("gpu");
    }

    @Test
    void fallsBackToTheNextFlavorInListOrder() {
        Engine e = engine(cq("q", null, "gpu", "a100", 2, "t4", 4),
                flavor("a100", Map.of("gpu-type", "a100")), flavor("t4", Map.of("gpu-type", "t4")));
        e.submit(selecting("w1", Map.of(), List.of(), 2));
        assertThat(flavorOf(settle(e, 0))).isEqualTo("a100");
        e.submit(selecting("w2", Map.of(), List.of(), 2));
        assertThat(flavorOf(settle(e, 1))).isEqualTo("t4");
    }

    @Test
    void nodeSelectorPicksMatchingFlavorAndIgnoresUnrelatedKeys() {
        Engine e = engine(cq("q", null, "gpu", "a100", 2, "t4", 4),
                flavor("a100", Map.of("gpu-type", "a100")), flavor("t4", Map.of("gpu-type", "t4")));
        e.submit(selecting("w", Map.of("gpu-type", "t4", "kubernetes.io/hostname", "node-1"), List.of(), 1));
        assertThat(flavorOf(settle(e, 0))).isEqualTo("t4");
        e.submit(selecting("nowhere", Map.of("gpu-type", "h100"), List.of(), 1));
        CycleResult r = settle(e, 1);
        assertThat(lastMessage(r, key("nowhere"))).isEqualTo("couldn't assign flavors to pod set main: flavor"
                + " a100 doesn't match node affinity, flavor t4 doesn't match node affinity");
    }

    @Test
    void requiredNodeAffinityIsHonoured() {
        Engine e = engine(cq("q", null, "gpu", "a100", 2, "t4", 4),
                flavor("a100", Map.of("gpu-type", "a100")), flavor("t4", Map.of("gpu-type", "t4")));
        PodSetSpec ps = new PodSetSpec("main", 1, null, Map.of("gpu", units(1)), Map.of(),
                List.of(new NodeSelectorTerm(List.of(new NodeSelectorRequirement("gpu-type", "NotIn",
                        List.of("a100"))))), List.of());
        e.submit(withPodSets(wl("w", "lq", 0, 0, "gpu", 1, 1), List.of(ps)));
        assertThat(flavorOf(settle(e, 0))).isEqualTo("t4");
    }

    @Test
    void taintsNeedTolerations() {
        FlavorSpec spot = new FlavorSpec("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")),
                List.of());
        Engine e = engine(cq("q", null, "gpu", "spot", 4, "on-demand", 1), spot, flavor("on-demand"));
        e.submit(selecting("plain", Map.of(), List.of(), 2));
        CycleResult r = settle(e, 0);
        assertThat(lastMessage(r, key("plain"))).isEqualTo("couldn't assign flavors to pod set main: insufficient"
                + " quota for gpu in flavor on-demand, request > maximum capacity (2 > 1), untolerated taint"
                + " {spot true NoSchedule <nil>} in flavor spot");
        e.submit(selecting("tolerant", Map.of(), List.of(new Toleration("spot", "Exists", null, null)), 2));
        assertThat(flavorOf(settle(e, 1))).isEqualTo("spot");
    }

    @Test
    void missingFlavorMakesTheQueueInactive() {
        Engine e = engine(cq("q", null, "gpu", "ghost", 4));
        e.submit(selecting("w", Map.of(), List.of(), 1));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("w"))).isEqualTo("ClusterQueue q is inactive");
        assertThat(e.clusterQueueStatus("q").active()).isFalse();
        assertThat(e.clusterQueueStatus("q").reason()).isEqualTo("FlavorNotFound");
        e.upsertFlavor(flavor("ghost"));
        assertThat(admitted(settle(e, 1))).containsExactly(key("w"));
    }

    @Test
    void whenCanBorrowTryNextFlavorPrefersAFlavorWithoutBorrowing() {
        ClusterQueueSpec base = cq("q", "co", "gpu", "a", 1, "b", 4);
        for (WhenCanBorrow when : WhenCanBorrow.values()) {
            Engine e = engine(withFungibility(base, new FlavorFungibility(when, null)), flavor("a"), flavor("b"));
            e.upsertClusterQueue(cq("lender", "co", "gpu", "a", 4));
            e.submit(selecting("w", Map.of(), List.of(), 2));
            assertThat(flavorOf(settle(e, 0))).isEqualTo(when == WhenCanBorrow.Borrow ? "a" : "b");
        }
    }

    @Test
    void podSetsAreAssignedTogetherAndUnknownResourcesAreNamed() {
        Engine e = engine(cq("q", null, "gpu", "a", 4), flavor("a"));
        e.submit(withPodSets(wl("w", "lq", 0, 0, "gpu", 1, 1), List.of(
                PodSetSpec.of("driver", 1, Map.of("gpu", units(1))),
                PodSetSpec.of("workers", 2, Map.of("gpu", units(2))))));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).isEmpty();
        assertThat(lastMessage(r, key("w"))).isEqualTo("couldn't assign flavors to pod set workers: insufficient"
                + " quota for gpu in flavor a, previously considered podsets requests (1) + current podset request"
                + " (4) > maximum capacity (4)");
        e.submit(withPodSets(wl("cpu", "lq", 0, 1, "gpu", 1, 1), List.of(PodSetSpec.of("main", 1,
                Map.of("cpu", units(1))))));
        assertThat(lastMessage(settle(e, 1), key("cpu"))).isEqualTo(
                "couldn't assign flavors to pod set main: resource cpu unavailable in ClusterQueue");
    }

    @Test
    void partialAdmissionShrinksToWhatFits() {
        Engine e = engine(cq("q", null, "gpu", "a", 5), flavor("a"));
        e.submit(withPodSets(wl("w", "lq", 0, 0, "gpu", 1, 1), List.of(
                new PodSetSpec("workers", 8, 2, Map.of("gpu", units(1)), Map.of(), List.of(), List.of()))));
        CycleResult r = settle(e, 0);
        assertThat(r.admissions()).hasSize(1);
        PodSetAssignment ps = r.admissions().get(0).assignment().podSets().get(0);
        assertThat(ps.count()).isEqualTo(5);
        assertThat(ps.resourceUsage()).containsEntry("gpu", units(5));
    }

    @Test
    void coveringPodsCountsEachPodAndFollowsSpecChanges() {
        ClusterQueueSpec withPods = new ClusterQueueSpec("q", null, List.of(new ResourceGroupSpec(
                List.of("cpu", "pods"), List.of(new FlavorQuotas("a", List.of(
                        new ResourceQuota("cpu", units(10)), new ResourceQuota("pods", units(3))))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), StopPolicy.None);
        Engine e = engine(withPods, flavor("a"));
        e.submit(wl("first", "lq", 0, 0, "cpu", 2, 1));
        e.submit(wl("second", "lq", 0, 1, "cpu", 2, 1));

        CycleResult r = settle(e, 0);

        assertThat(admitted(r)).containsExactly(key("first"));
        assertThat(r.admissions().get(0).assignment().podSets().get(0).resourceUsage())
                .containsEntry("pods", units(2));
        assertThat(lastMessage(r, key("second"))).isEqualTo("couldn't assign flavors to pod set main:"
                + " insufficient unused quota for pods in flavor a, 1 more needed");

        // Without pods in the spec, pods are no longer counted: the second fits on cpu alone.
        e.upsertClusterQueue(cq("q", null, "cpu", "a", 10));
        assertThat(admitted(settle(e, 2))).containsExactly(key("second"));
    }
}
