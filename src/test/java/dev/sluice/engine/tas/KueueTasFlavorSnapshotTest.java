package dev.sluice.engine.tas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19.2's unit tests of the flavor snapshot and cache (pkg/cache/scheduler/tas_flavor_snapshot_test.go,
 * tas_flavor_test.go), named after the Go test and case. Not translated: the cases of TASRespectNodeAffinityPreferred
 * (off by default in v0.19.2; Sluice has no affinity score), node replacement (TestMergeTopologyAssignments,
 * TestIsTopologyAssignmentStale), elastic workloads (TestTruncateAssignment), and the debug dump
 * (TestFreeCapacityPerDomain).
 */
class KueueTasFlavorSnapshotTest {
    /** TestSortedDomainsWithLeader, "leaderCount descending: domains that can host leader come first". */
    @Test
    void sortedWithLeaderLeaderCountDescendingDomainsThatCanHostLeaderComeFirst() {
        List<Domain> domains = List.of(
                domain("no-leader", List.of("a"), "leaderCount=0", "sliceCountWithLeader=10", "podCountWithLeader=10"),
                domain("has-leader", List.of("b"), "leaderCount=1", "sliceCountWithLeader=1", "podCountWithLeader=1"));
        assertThat(ids(DomainOrder.sortedWithLeader(domains, false, false))).containsExactly("has-leader", "no-leader");
    }

    /** TestSortedDomainsWithLeader, "BestFit: sliceCountWithLeader descending". */
    @Test
    void sortedWithLeaderBestFitSliceCountWithLeaderDescending() {
        List<Domain> domains = List.of(
                domain("a", List.of("a"), "leaderCount=1", "sliceCountWithLeader=3", "podCountWithLeader=1"),
                domain("b", List.of("b"), "leaderCount=1", "sliceCountWithLeader=1", "podCountWithLeader=1"),
                domain("c", List.of("c"), "leaderCount=1", "sliceCountWithLeader=2", "podCountWithLeader=1"));
        assertThat(ids(DomainOrder.sortedWithLeader(domains, false, false))).containsExactly("a", "c", "b");
    }

    /** TestSortedDomainsWithLeader, "LeastFreeCapacity: sliceCountWithLeader ascending". */
    @Test
    void sortedWithLeaderLeastFreeCapacitySliceCountWithLeaderAscending() {
        List<Domain> domains = List.of(
                domain("a", List.of("a"), "leaderCount=1", "sliceCountWithLeader=3", "podCountWithLeader=1"),
                domain("b", List.of("b"), "leaderCount=1", "sliceCountWithLeader=1", "podCountWithLeader=1"),
                domain("c", List.of("c"), "leaderCount=1", "sliceCountWithLeader=2", "podCountWithLeader=1"));
        assertThat(ids(DomainOrder.sortedWithLeader(domains, true, false))).containsExactly("b", "c", "a");
    }

    /** TestSortedDomainsWithLeader, "BestFit: podCountWithLeader ascending as tiebreaker". */
    @Test
    void sortedWithLeaderBestFitPodCountWithLeaderAscendingAsTiebreaker() {
        List<Domain> domains = List.of(
                domain("large", List.of("a"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=100"),
                domain("small", List.of("b"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=10"),
                domain("medium", List.of("c"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=50"));
        assertThat(ids(DomainOrder.sortedWithLeader(domains, false, false))).containsExactly("small", "medium", "large");
    }

    /** TestSortedDomainsWithLeader, "LeastFreeCapacity: podCountWithLeader ascending as tiebreaker". */
    @Test
    void sortedWithLeaderLeastFreeCapacityPodCountWithLeaderAscendingAsTiebreaker() {
        List<Domain> domains = List.of(
                domain("large", List.of("a"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=100"),
                domain("small", List.of("b"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=10"),
                domain("medium", List.of("c"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=50"));
        assertThat(ids(DomainOrder.sortedWithLeader(domains, true, false))).containsExactly("small", "medium", "large");
    }

    /** TestSortedDomainsWithLeader, "levelValues ascending as final tiebreaker". */
    @Test
    void sortedWithLeaderLevelValuesAscendingAsFinalTiebreaker() {
        List<Domain> domains = List.of(
                domain("c", List.of("c"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=10"),
                domain("a", List.of("a"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=10"),
                domain("b", List.of("b"), "leaderCount=1", "sliceCountWithLeader=5", "podCountWithLeader=10"));
        assertThat(ids(DomainOrder.sortedWithLeader(domains, false, false))).containsExactly("a", "b", "c");
    }

    /** TestSortedDomains, "BestFit: sliceCount descending". */
    @Test
    void sortedBestFitSliceCountDescending() {
        List<Domain> domains = List.of(
                domain("a", List.of("a"), "sliceCount=3", "podCount=1"),
                domain("b", List.of("b"), "sliceCount=1", "podCount=1"),
                domain("c", List.of("c"), "sliceCount=2", "podCount=1"));
        assertThat(ids(DomainOrder.sorted(domains, false, false))).containsExactly("a", "c", "b");
    }

    /** TestSortedDomains, "LeastFreeCapacity: sliceCount ascending". */
    @Test
    void sortedLeastFreeCapacitySliceCountAscending() {
        List<Domain> domains = List.of(
                domain("a", List.of("a"), "sliceCount=3", "podCount=1"),
                domain("b", List.of("b"), "sliceCount=1", "podCount=1"),
                domain("c", List.of("c"), "sliceCount=2", "podCount=1"));
        assertThat(ids(DomainOrder.sorted(domains, true, false))).containsExactly("b", "c", "a");
    }

    /** TestSortedDomains, "BestFit: podCount ascending as tiebreaker". */
    @Test
    void sortedBestFitPodCountAscendingAsTiebreaker() {
        List<Domain> domains = List.of(
                domain("large", List.of("a"), "sliceCount=5", "podCount=100"),
                domain("small", List.of("b"), "sliceCount=5", "podCount=10"),
                domain("medium", List.of("c"), "sliceCount=5", "podCount=50"));
        assertThat(ids(DomainOrder.sorted(domains, false, false))).containsExactly("small", "medium", "large");
    }

    /** TestSortedDomains, "LeastFreeCapacity: podCount ascending as tiebreaker". */
    @Test
    void sortedLeastFreeCapacityPodCountAscendingAsTiebreaker() {
        List<Domain> domains = List.of(
                domain("large", List.of("a"), "sliceCount=5", "podCount=100"),
                domain("small", List.of("b"), "sliceCount=5", "podCount=10"),
                domain("medium", List.of("c"), "sliceCount=5", "podCount=50"));
        assertThat(ids(DomainOrder.sorted(domains, true, false))).containsExactly("small", "medium", "large");
    }

    /** TestSortedDomains, "levelValues ascending as final tiebreaker". */
    @Test
    void sortedLevelValuesAscendingAsFinalTiebreaker() {
        List<Domain> domains = List.of(
                domain("c", List.of("c"), "sliceCount=5", "podCount=10"),
                domain("a", List.of("a"), "sliceCount=5", "podCount=10"),
                domain("b", List.of("b"), "sliceCount=5", "podCount=10"));
        assertThat(ids(DomainOrder.sorted(domains, false, false))).containsExactly("a", "b", "c");
    }

    private static TasFlavorSnapshot twoLevels() {
        return new TasFlavorSnapshot(new Topology("dummy", List.of("level-1", "level-2")), Map.of(), List.of(), List.of());
    }

    /** TestHasLevel, "topology request nil". */
    @Test
    void hasLevelTopologyRequestNil() {
        assertThat(twoLevels().hasLevel(null)).isFalse();
    }

    /** TestHasLevel, "topology request empty". */
    @Test
    void hasLevelTopologyRequestEmpty() {
        assertThat(twoLevels().hasLevel(new PodSetTopologyRequest(null, null, null, null, null, null, null, null, null,
                null))).isFalse();
    }

    /** TestHasLevel, "required" and "required – invalid level". */
    @Test
    void hasLevelRequired() {
        assertThat(twoLevels().hasLevel(PodSetTopologyRequest.ofRequired("level-1"))).isTrue();
        assertThat(twoLevels().hasLevel(PodSetTopologyRequest.ofRequired("invalid-level"))).isFalse();
    }

    /** TestHasLevel, "preferred" and "preferred – invalid level". */
    @Test
    void hasLevelPreferred() {
        assertThat(twoLevels().hasLevel(PodSetTopologyRequest.ofPreferred("level-1"))).isTrue();
        assertThat(twoLevels().hasLevel(PodSetTopologyRequest.ofPreferred("invalid-level"))).isFalse();
    }

    /** TestHasLevel, "unconstrained". */
    @Test
    void hasLevelUnconstrained() {
        assertThat(twoLevels().hasLevel(PodSetTopologyRequest.ofUnconstrained())).isTrue();
    }

    /** TestHasLevel, "slice-only" and "slice-only – invalid level" (no slice size, as there). */
    @Test
    void hasLevelSliceOnly() {
        assertThat(twoLevels().hasLevel(new PodSetTopologyRequest(null, null, null, null, null, null, null, "level-1",
                null, null))).isTrue();
        assertThat(twoLevels().hasLevel(new PodSetTopologyRequest(null, null, null, null, null, null, null,
                "invalid-level", null, null))).isFalse();
    }

    /** TestCompareDomainLevelValues: siblings of a hostname topology by hostname; otherwise level by level. */
    @Test
    void compareDomainLevelValues() {
        Domain parent1 = new Domain("b1-r1", List.of("b1", "r1"));
        Domain parent2 = new Domain("b1-r2", List.of("b1", "r2"));
        Domain a = child(parent1, "node-a");
        Domain b = child(parent1, "node-b");
        // "isLowestLevelNode with same-parent sibling domains: ascending / descending / equal hostname"
        assertThat(DomainOrder.compareLevelValues(a, b, true)).isNegative();
        assertThat(DomainOrder.compareLevelValues(b, a, true)).isPositive();
        assertThat(DomainOrder.compareLevelValues(a, child(parent1, "node-a"), true)).isZero();
        // "fallback comparator: multi-level inputs with different parents sorted lexicographically across levels"
        assertThat(DomainOrder.compareLevelValues(child(parent1, "node-z"), child(parent2, "node-a"), true)).isNegative();
        // "fallback comparator: non-hostname levels sorted lexicographically across levels"
        assertThat(DomainOrder.compareLevelValues(parent1, parent2, false)).isNegative();
    }

    /** TestCountPodsInAssignment: "empty assignment", "single domain", "multiple domains". */
    @Test
    void countPodsInAssignment() {
        assertThat(new TopologyAssignment(List.of("hostname"), List.of()).podCount()).isZero();
        assertThat(new TopologyAssignment(List.of("hostname"), List.of(d(3, "a"))).podCount()).isEqualTo(3);
        assertThat(new TopologyAssignment(List.of("hostname"), List.of(d(3, "a"), d(2, "b"), d(5, "c"))).podCount())
                .isEqualTo(10);
    }

    /**
     * TestAddAssumedUsage, "includes pod count for existing and new domains": a pod set placed earlier in the same
     * call counts against the next one, pods included (node-a keeps room for one more 500m pod, not two).
     */
    @Test
    void assumedUsageIncludesPodCountForExistingAndNewDomains() {
        TasNode nodeA = new TasNode("node-a", Map.of(Topology.HOSTNAME, "node-a"),
                Map.of("cpu", 1500L, "pods", 3000L), List.of(), true, false);
        TasFlavorSnapshot s = new TasFlavorSnapshot(new Topology("default", List.of(Topology.HOSTNAME)), Map.of(),
                List.of(), List.of(nodeA));
        Map<String, PlacementResult> r = s.findTopologyAssignments(List.of(
                TasPodSetRequest.of("first", 2, Map.of("cpu", 500L), PodSetTopologyRequest.ofRequired(Topology.HOSTNAME)),
                TasPodSetRequest.of("second", 2, Map.of(), PodSetTopologyRequest.ofRequired(Topology.HOSTNAME))), false);
        // 2 pods of 500m leave 500m and one pod slot: the second pod set (no cpu) is limited by pods
        assertThat(r.get("first").fits()).isTrue();
        assertThat(r.get("second").failureReason()).isEqualTo("topology \"default\" allows to fit only 1 out of 2 pod(s)");
    }

    /** TestTASFlavorCacheAddAndRemoveUsage, "add usage". */
    @Test
    void flavorCacheAddUsage() {
        TasFlavorCache cache = cache();
        cache.addUsage("default/wl1", List.of(usage("domain1", 2, 2)));
        assertThat(cache.usage()).isEqualTo(Map.of("domain1", Map.of("cpu", 4L, "pods", 2000L)));
    }

    /** TestTASFlavorCacheAddAndRemoveUsage, "add usage self-healing (replace existing)". */
    @Test
    void flavorCacheAddUsageSelfHealingReplaceExisting() {
        TasFlavorCache cache = cache();
        cache.addUsage("default/wl1", List.of(usage("domain1", 1, 1)));
        cache.addUsage("default/wl1", List.of(usage("domain2", 2, 3)));
        assertThat(cache.usage()).isEqualTo(Map.of("domain1", Map.of("cpu", 0L, "pods", 0L),
                "domain2", Map.of("cpu", 6L, "pods", 2000L)));
    }

    /** TestTASFlavorCacheAddAndRemoveUsage, "remove usage". */
    @Test
    void flavorCacheRemoveUsage() {
        TasFlavorCache cache = cache();
        cache.addUsage("default/wl1", List.of(usage("domain1", 1, 1)));
        cache.removeUsage("default/wl1");
        assertThat(cache.usage()).isEqualTo(Map.of("domain1", Map.of("cpu", 0L, "pods", 0L)));
    }

    /** TestTASFlavorCacheAddAndRemoveUsage, "remove usage (key not found) handles gracefully". */
    @Test
    void flavorCacheRemoveUsageKeyNotFoundHandlesGracefully() {
        TasFlavorCache cache = cache();
        cache.removeUsage("default/wl1");
        assertThat(cache.usage()).isEmpty();
    }

    /** The cache keeps usage of a domain without a node; a later snapshot holding the node applies it (as Kueue). */
    @Test
    void usageOfADomainWithoutNodeAppliesOnceTheNodeIsBack() {
        TasFlavorCache cache = new TasFlavorCache(new Topology("default", List.of(Topology.HOSTNAME)), Map.of(), List.of());
        cache.addUsage("default/wl1", List.of(new TasUsage(new TopologyAssignment(List.of(Topology.HOSTNAME),
                List.of(d(2, "x1"))), Map.of("cpu", 1000L))));
        TasNode x1 = new TasNode("x1", Map.of(Topology.HOSTNAME, "x1"), Map.of("cpu", 3000L, "pods", 10_000L),
                List.of(), true, false);
        assertThat(cache.snapshot(List.of(), Map.of()).leafIds()).isEmpty();
        TasFlavorSnapshot s = cache.snapshot(List.of(x1), Map.of("x1", Map.of("cpu", 500L)));
        assertThat(s.remainingCapacity("x1")).isEqualTo(Map.of("cpu", 500L, "pods", 8000L));
    }

    // ---- helpers

    private static TasFlavorCache cache() {
        return new TasFlavorCache(new Topology("default", List.of("level")), Map.of(), List.of());
    }

    /** One domain's usage in Kueue's test units (cpu milli as given; pods whole, so 1000 each here). */
    private static TasUsage usage(String domain, int count, long cpuPerPod) {
        return new TasUsage(new TopologyAssignment(List.of("level"), List.of(d(count, domain))), Map.of("cpu", cpuPerPod));
    }

    private static TopologyDomainAssignment d(int count, String... values) {
        return new TopologyDomainAssignment(List.of(values), count);
    }

    private static Domain child(Domain parent, String hostname) {
        List<String> values = new ArrayList<>(parent.levelValues);
        values.add(hostname);
        Domain d = new Domain(hostname, values);
        d.parent = parent;
        return d;
    }

    /** A domain with scratch state given as "field=value". */
    private static Domain domain(String id, List<String> levelValues, String... state) {
        Domain d = new Domain(id, levelValues);
        for (String s : state) {
            String[] kv = s.split("=");
            int v = Integer.parseInt(kv[1]);
            switch (kv[0]) {
                case "podCount" -> d.podCount = v;
                case "sliceCount" -> d.sliceCount = v;
                case "podCountWithLeader" -> d.podCountWithLeader = v;
                case "sliceCountWithLeader" -> d.sliceCountWithLeader = v;
                case "leaderCount" -> d.leaderCount = v;
                default -> throw new IllegalArgumentException(kv[0]);
            }
        }
        return d;
    }

    private static List<String> ids(List<Domain> domains) {
        List<String> out = new ArrayList<>();
        for (Domain d : domains) {
            out.add(d.id);
        }
        return out;
    }
}
