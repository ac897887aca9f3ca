package dev.sluice.engine.tas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19.2's tests of the v1beta2 topology assignment encoding (pkg/util/tas/tas_assignment_test.go), named after
 * the Go test and case, with TASAssignmentsEncodingByHostnamePrefix on (its v0.19.2 default).
 */
class KueueTopologyAssignmentEncodingTest {
    static final String HOSTNAME = Topology.HOSTNAME;

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "empty". */
    @Test
    void bothWaysEmpty() {
        TopologyAssignment internal = internal(List.of("a", "b"));
        WireTopologyAssignment wire = wire(List.of("a", "b"));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "one domain". */
    @Test
    void bothWaysOneDomain() {
        TopologyAssignment internal = internal(List.of("a", "b"), d(1, "a1", "b1"));
        WireTopologyAssignment wire = wire(List.of("a", "b"),
                slice(1, counts(1), universal("a1"), universal("b1")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, same counts, no common prefix". */
    @Test
    void bothWaysMultipleDomainsSameCountsNoCommonPrefix() {
        TopologyAssignment internal = internal(List.of("a", "b"), d(1, "a1", "b1"), d(1, "a2", "b2"));
        WireTopologyAssignment wire = wire(List.of("a", "b"),
                slice(2, counts(1), individual("a", null, "1", "2"), individual("b", null, "1", "2")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, different counts, common prefix and suffix". */
    @Test
    void bothWaysMultipleDomainsDifferentCountsCommonPrefixAndSuffix() {
        TopologyAssignment internal = internal(List.of("a", "b"), d(1, "p.a1.s", "p.b1.s"), d(2, "p.a2.s", "p.b2.s"));
        WireTopologyAssignment wire = wire(List.of("a", "b"),
                slice(2, countsEach(1, 2), individual("p.a", ".s", "1", "2"), individual("p.b", ".s", "1", "2")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, universal value". */
    @Test
    void bothWaysMultipleDomainsUniversalValue() {
        TopologyAssignment internal = internal(List.of("a", "b"), d(1, "a1", "x"), d(2, "a1", "y"));
        WireTopologyAssignment wire = wire(List.of("a", "b"),
                slice(2, countsEach(1, 2), universal("a1"), individual(null, null, "x", "y")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, same counts, shrinking prefix". */
    @Test
    void bothWaysMultipleDomainsSameCountsShrinkingPrefix() {
        TopologyAssignment internal = internal(List.of("a"), d(1, "a123"), d(1, "a12"), d(1, "a1"), d(1, "a13"));
        WireTopologyAssignment wire = wire(List.of("a"),
                slice(4, counts(1), individual("a1", null, "23", "2", "", "3")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, same counts, shrinking suffix". */
    @Test
    void bothWaysMultipleDomainsSameCountsShrinkingSuffix() {
        TopologyAssignment internal = internal(List.of("a"), d(1, "123b"), d(1, "23b"), d(1, "3b"), d(1, "13b"));
        WireTopologyAssignment wire = wire(List.of("a"),
                slice(4, counts(1), individual(null, "3b", "12", "2", "", "1")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, same counts, max prefix & suffix overlap partially". */
    @Test
    void bothWaysMultipleDomainsSameCountsMaxPrefixSuffixOverlapPartially() {
        TopologyAssignment internal = internal(List.of("a"), d(1, "abacacada"), d(1, "abacada"));
        WireTopologyAssignment wire = wire(List.of("a"),
                slice(2, counts(1), individual("ab", "acada", "ac", "")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, same counts, max prefix & suffix overlap fully, shrinking strings". */
    @Test
    void bothWaysMultipleDomainsSameCountsMaxPrefixSuffixOverlapFullyShrinkingStrings() {
        TopologyAssignment internal = internal(List.of("a"), d(1, "ababa"), d(1, "aba"));
        WireTopologyAssignment wire = wire(List.of("a"),
                slice(2, counts(1), individual(null, "aba", "ab", "")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal and TestInternalFromV1Beta2, "multiple domains, same counts, max prefix & suffix overlap fully, growing strings". */
    @Test
    void bothWaysMultipleDomainsSameCountsMaxPrefixSuffixOverlapFullyGrowingStrings() {
        TopologyAssignment internal = internal(List.of("a"), d(1, "aba"), d(1, "ababa"));
        WireTopologyAssignment wire = wire(List.of("a"),
                slice(2, counts(1), individual(null, "aba", "", "ab")));
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(wire);
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestInternalFromV1Beta2, "multiple slices, no prefixes/suffixes or universal values". */
    @Test
    void oneWayMultipleSlicesNoPrefixesSuffixesOrUniversalValues() {
        TopologyAssignment internal = internal(List.of("a", "b"), d(1, "a", "b"), d(2, "c", "d"), d(3, "e", "f"));
        WireTopologyAssignment wire = wire(List.of("a", "b"),
                slice(1, countsEach(1), individual(null, null, "a"), individual(null, null, "b")),
                slice(2, countsEach(2, 3), individual(null, null, "c", "e"), individual(null, null, "d", "f")));
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestInternalFromV1Beta2, "multiple slices, prefixes, suffixes & universal values". */
    @Test
    void oneWayMultipleSlicesPrefixesSuffixesUniversalValues() {
        TopologyAssignment internal = internal(List.of("a", "b"), d(2, "a1", "b1-s"), d(3, "a1", "b2-s"), d(5, "a2", "x-t"), d(5, "a3", "y-t"), d(5, "a4", "z-t"), d(10, "a10", "b10"), d(10, "a10", "b10"));
        WireTopologyAssignment wire = wire(List.of("a", "b"),
                slice(2, countsEach(2, 3), universal("a1"), individual("b", "-s", "1", "2")),
                slice(3, counts(5), individual("a", null, "2", "3", "4"), individual(null, "-t", "x", "y", "z")),
                slice(2, counts(10), universal("a10"), universal("b10")));
        assertThat(TopologyAssignmentEncoding.fromWire(wire)).isEqualTo(internal);
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns, "GKE node pools". */
    @Test
    void hostnamePrefixRunsGKENodePools() {
        TopologyAssignment internal = internal(List.of(HOSTNAME), d(3, "gke-c-pool-a-hash1-aa"), d(3, "gke-c-pool-a-hash1-bb"), d(4, "gke-c-pool-b-hash2-cc"), d(5, "gke-c-pool-b-hash2-dd"));
        assertThat(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal)).isEqualTo(wire(List.of(HOSTNAME),
                slice(2, counts(3), individual("gke-c-pool-a-hash1-", null, "aa", "bb")),
                slice(2, countsEach(4, 5), individual("gke-c-pool-b-hash2-", null, "cc", "dd"))));
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns, "AWS EKS private DNS names". */
    @Test
    void hostnamePrefixRunsAWSEKSPrivateDNSNames() {
        TopologyAssignment internal = internal(List.of(HOSTNAME), d(2, "ip-10-24-34-0.us-west-2.compute.internal"), d(2, "ip-10-24-34-1.us-west-2.compute.internal"), d(3, "ip-10-24-35-0.us-west-2.compute.internal"), d(4, "ip-10-24-35-1.us-west-2.compute.internal"));
        assertThat(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal)).isEqualTo(wire(List.of(HOSTNAME),
                slice(2, counts(2), individual("ip-10-24-34-", ".us-west-2.compute.internal", "0", "1")),
                slice(2, countsEach(3, 4), individual("ip-10-24-35-", ".us-west-2.compute.internal", "0", "1"))));
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns, "Azure AKS VMSS node pools". */
    @Test
    void hostnamePrefixRunsAzureAKSVMSSNodePools() {
        TopologyAssignment internal = internal(List.of(HOSTNAME), d(1, "aks-nodepool1-12345678-vmss000000"), d(1, "aks-nodepool1-12345678-vmss000001"), d(2, "aks-nodepool2-87654321-vmss000000"), d(3, "aks-nodepool2-87654321-vmss000001"));
        assertThat(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal)).isEqualTo(wire(List.of(HOSTNAME),
                slice(2, counts(1), individual("aks-nodepool1-12345678-vmss00000", null, "0", "1")),
                slice(2, countsEach(2, 3), individual("aks-nodepool2-87654321-vmss00000", null, "0", "1"))));
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns, "on-premises UUID node names". */
    @Test
    void hostnamePrefixRunsOnPremisesUUIDNodeNames() {
        TopologyAssignment internal = internal(List.of(HOSTNAME), d(1, "550e8400-e29b-41d4-a716-446655440000"), d(2, "6ba7b810-9dad-11d1-80b4-00c04fd430c8"), d(3, "f47ac10b-58cc-4372-a567-0e02b2c3d479"));
        assertThat(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal)).isEqualTo(wire(List.of(HOSTNAME),
                slice(3, countsEach(1, 2, 3), individual(null, null, "550e8400-e29b-41d4-a716-446655440000", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "f47ac10b-58cc-4372-a567-0e02b2c3d479"))));
    }

    /** TestV1Beta2FromInternal_forNil and TestInternalFromV1Beta2_forNil. */
    @Test
    void nilStaysNil() {
        assertThat(TopologyAssignmentEncoding.toWire(null)).isNull();
        assertThat(TopologyAssignmentEncoding.fromWire(null)).isNull();
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns_withoutHostnameLevel. */
    @Test
    void hostnamePrefixRunsWithoutHostnameLevel() {
        TopologyAssignment internal = internal(List.of("cloud.example.com/rack"), d(1, "rack-a"), d(2, "rack-b"));
        WireTopologyAssignment got = TopologyAssignmentEncoding.withHostnamePrefixRuns(internal);
        assertThat(got.slices()).hasSize(1);
        assertThat(TopologyAssignmentEncoding.fromWire(got)).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal_hostnamePrefixFeatureGateAndFallback, "enabled keeps one-slice hostname-prefix encoding". */
    @Test
    void enabledKeepsOneSliceHostnamePrefixEncoding() {
        TopologyAssignment internal = hostnamePrefixAssignment(1);
        assertThat(TopologyAssignmentEncoding.toWire(internal))
                .isEqualTo(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal));
        assertThat(TopologyAssignmentEncoding.fromWire(TopologyAssignmentEncoding.toWire(internal))).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal_hostnamePrefixFeatureGateAndFallback, "enabled uses smaller single-slice encoding". */
    @Test
    void enabledUsesSmallerSingleSliceEncoding() {
        TopologyAssignment internal = hostnamePrefixAssignment(4);
        assertThat(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal).slices()).hasSize(2);
        assertThat(TopologyAssignmentEncoding.toWire(internal)).isEqualTo(TopologyAssignmentEncoding.singleSlice(internal));
        assertThat(TopologyAssignmentEncoding.fromWire(TopologyAssignmentEncoding.toWire(internal))).isEqualTo(internal);
    }

    /** TestV1Beta2FromInternal_hostnamePrefixFeatureGateAndFallback, "enabled uses smaller hostname-prefix encoding". */
    @Test
    void enabledUsesSmallerHostnamePrefixEncoding() {
        TopologyAssignment internal = hostnamePrefixAssignment(20);
        assertThat(TopologyAssignmentEncoding.toWire(internal))
                .isEqualTo(TopologyAssignmentEncoding.withHostnamePrefixRuns(internal));
        assertThat(TopologyAssignmentEncoding.toWire(internal).slices()).hasSize(2);
        assertThat(TopologyAssignmentEncoding.fromWire(TopologyAssignmentEncoding.toWire(internal))).isEqualTo(internal);
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns_preservesDomainOrder. */
    @Test
    void hostnamePrefixRunsPreserveDomainOrder() {
        TopologyAssignment internal = internal(List.of(HOSTNAME), d(1, "gke-c-pool-a-hash1-aa"),
                d(2, "gke-c-pool-b-hash2-cc"), d(3, "gke-c-pool-a-hash1-bb"), d(4, "gke-c-pool-b-hash2-dd"));
        WireTopologyAssignment encoded = TopologyAssignmentEncoding.withHostnamePrefixRuns(internal);
        assertThat(encoded.slices()).hasSize(4);
        assertThat(TopologyAssignmentEncoding.fromWire(encoded).domains()).isEqualTo(internal.domains());
    }

    /** TestV1Beta2FromInternal_largeHostnameAssignmentWithManyPools: 2000 pools of 100 nodes, chunked at 100000 domains. */
    @Test
    void largeHostnameAssignmentWithManyPools() {
        List<TopologyDomainAssignment> domains = new ArrayList<>();
        for (int pool = 0; pool < 2000; pool++) {
            for (int node = 0; node < 100; node++) {
                domains.add(new TopologyDomainAssignment(
                        List.of(String.format("gke-cluster-pool-%04d-%08x-%04x", pool, pool, node)), 1));
            }
        }
        WireTopologyAssignment got = TopologyAssignmentEncoding.toWire(new TopologyAssignment(List.of(HOSTNAME), domains));
        assertThat(got.slices()).hasSize(2);
        assertThat(got.slices()).allSatisfy(s -> assertThat(s.domainCount()).isEqualTo(100_000));
    }

    /** TestReusableHostnamePrefixKeys, "longest reusable prefixes". */
    @Test
    void longestReusablePrefixes() {
        assertThat(TopologyAssignmentEncoding.reusableHostnamePrefixKeys(0, hosts("gke-c-pool-a-hash1-aa",
                "gke-c-pool-a-hash1-bb", "gke-c-pool-b-hash2-cc", "gke-c-pool-b-hash2-dd")))
                .containsExactly("gke-c-pool-a-hash1-", "gke-c-pool-a-hash1-", "gke-c-pool-b-hash2-", "gke-c-pool-b-hash2-");
    }

    /** TestReusableHostnamePrefixKeys, "no reusable prefix". */
    @Test
    void noReusablePrefix() {
        assertThat(TopologyAssignmentEncoding.reusableHostnamePrefixKeys(0, hosts("node-a", "host-b")))
                .containsExactly("", "");
    }

    /** TestReusableHostnamePrefixKeys, "no delimiter". */
    @Test
    void noDelimiter() {
        assertThat(TopologyAssignmentEncoding.reusableHostnamePrefixKeys(0, hosts("nodea", "hostb"))).isNull();
    }

    /** TestReusableHostnamePrefixKeys_backsOffToFitSliceLimit. */
    @Test
    void reusableHostnamePrefixKeysBackOffToFitSliceLimit() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i <= TopologyAssignmentEncoding.MAX_SLICES; i++) {
            names.add(String.format("a-%s-%04d", i % 2 == 1 ? "y" : "x", i));
        }
        assertThat(TopologyAssignmentEncoding.reusableHostnamePrefixKeys(0, hosts(names.toArray(String[]::new))))
                .hasSize(names.size()).containsOnly("a-");
    }

    /** TestCompactTopologyAssignmentEncodingWithHostnamePrefixRuns_fallsBackWhenNoPrefixDepthFitsSliceLimit. */
    @Test
    void hostnamePrefixRunsFallBackWhenNoPrefixDepthFitsSliceLimit() {
        List<TopologyDomainAssignment> domains = new ArrayList<>();
        for (int i = 0; i <= TopologyAssignmentEncoding.MAX_SLICES; i++) {
            domains.add(new TopologyDomainAssignment(List.of(String.format("%s-%04d", i % 2 == 1 ? "b-y" : "a-x", i)), 1));
        }
        TopologyAssignment internal = new TopologyAssignment(List.of(HOSTNAME), domains);
        assertThat(TopologyAssignmentEncoding.reusableHostnamePrefixKeys(0, domains)).isNull();
        WireTopologyAssignment got = TopologyAssignmentEncoding.withHostnamePrefixRuns(internal);
        assertThat(got.slices()).hasSize(1);
        assertThat(TopologyAssignmentEncoding.fromWire(got)).isEqualTo(internal);
    }

    /** TestCompactDomainRuns: "empty", "no prefix keys", "groups consecutive domains". */
    @Test
    void compactDomainRuns() {
        List<TopologyDomainAssignment> domains = hosts("node-0000", "node-0001", "node-0002", "node-0003");
        assertThat(TopologyAssignmentEncoding.runs(List.of(), null)).isEmpty();
        assertThat(TopologyAssignmentEncoding.runs(domains, null)).extracting(List::size).containsExactly(4);
        assertThat(TopologyAssignmentEncoding.runs(domains, List.of("prefix-a-", "prefix-a-", "prefix-b-", "prefix-a-")))
                .extracting(List::size).containsExactly(2, 1, 1);
    }

    /** The serialized form whose length the encoding compares is Go's encoding/json of the v1beta2 struct. */
    @Test
    void jsonIsGoEncodingOfTheV1beta2Struct() {
        WireTopologyAssignment w = wire(List.of(HOSTNAME),
                slice(2, countsEach(1, 2), individual("n-", null, "a", "b")),
                slice(1, counts(3), universal("m")));
        assertThat(WireJson.toJson(w)).isEqualTo("{\"levels\":[\"kubernetes.io/hostname\"],\"slices\":["
                + "{\"domainCount\":2,\"valuesPerLevel\":[{\"individual\":{\"prefix\":\"n-\",\"roots\":[\"a\",\"b\"]}}],"
                + "\"podCounts\":{\"individual\":[1,2]}},"
                + "{\"domainCount\":1,\"valuesPerLevel\":[{\"universal\":\"m\"}],\"podCounts\":{\"universal\":3}}]}");
    }

    // ---- helpers in the shape of Kueue's literals

    /** Kueue's hostnamePrefixAssignment: two pools, pool-a-node-NNNNN and pool-b-node-NNNNN. */
    static TopologyAssignment hostnamePrefixAssignment(int domainCount) {
        int perPrefix = domainCount / 2;
        List<TopologyDomainAssignment> domains = new ArrayList<>();
        for (int i = 0; i < domainCount; i++) {
            String prefix = i >= perPrefix ? "b" : "a";
            int nodeId = i >= perPrefix ? i - perPrefix : i;
            domains.add(new TopologyDomainAssignment(List.of(String.format("pool-%s-node-%05d", prefix, nodeId)), 1));
        }
        return new TopologyAssignment(List.of(HOSTNAME), domains);
    }

    static List<TopologyDomainAssignment> hosts(String... names) {
        List<TopologyDomainAssignment> out = new ArrayList<>();
        for (String n : names) {
            out.add(new TopologyDomainAssignment(List.of(n), 1));
        }
        return out;
    }

    static TopologyDomainAssignment d(int count, String... values) {
        return new TopologyDomainAssignment(List.of(values), count);
    }

    static TopologyAssignment internal(List<String> levels, TopologyDomainAssignment... domains) {
        return new TopologyAssignment(levels, List.of(domains));
    }

    static WireTopologyAssignment wire(List<String> levels, WireTopologyAssignment.Slice... slices) {
        return new WireTopologyAssignment(levels, List.of(slices));
    }

    static WireTopologyAssignment.Slice slice(int domainCount, WireTopologyAssignment.PodCounts counts,
                                              WireTopologyAssignment.LevelValues... values) {
        return new WireTopologyAssignment.Slice(domainCount, List.of(values), counts);
    }

    static WireTopologyAssignment.PodCounts counts(int universal) {
        return new WireTopologyAssignment.PodCounts(universal, null);
    }

    static WireTopologyAssignment.PodCounts countsEach(Integer... counts) {
        return new WireTopologyAssignment.PodCounts(null, Arrays.asList(counts));
    }

    static WireTopologyAssignment.LevelValues universal(String v) {
        return new WireTopologyAssignment.LevelValues(v, null);
    }

    static WireTopologyAssignment.LevelValues individual(String prefix, String suffix, String... roots) {
        return new WireTopologyAssignment.LevelValues(null, new WireTopologyAssignment.Individual(prefix, suffix,
                List.of(roots)));
    }
}
