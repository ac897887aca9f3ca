package dev.sluice.engine.tas;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue v0.19's translation between the internal assignment and the v1beta2 wire form (pkg/util/tas/tas_assignment.go,
 * V1Beta2From with TASAssignmentsEncodingByHostnamePrefix, Beta and on by default in v0.19): consecutive hostnames
 * sharing a reusable '-'-delimited prefix form one slice each, unless a single slice serializes shorter.
 */
public final class TopologyAssignmentEncoding {
    /** The v1beta2 MaxItems of roots and individual pod counts. */
    static final int MAX_DOMAINS_PER_SLICE = 100_000;
    /** The v1beta2 MaxItems of slices. */
    static final int MAX_SLICES = 1_000;

    private TopologyAssignmentEncoding() {
    }

    /** Kueue's V1Beta2From (gate on). */
    public static WireTopologyAssignment toWire(TopologyAssignment ta) {
        if (ta == null) {
            return null;
        }
        WireTopologyAssignment prefixEncoded = withHostnamePrefixRuns(ta);
        if (prefixEncoded.slices().size() <= 1 || ta.domains().size() > MAX_DOMAINS_PER_SLICE) {
            return prefixEncoded;
        }
        WireTopologyAssignment single = singleSlice(ta);
        return WireJson.toJson(single).length() < WireJson.toJson(prefixEncoded).length() ? single : prefixEncoded;
    }

    /** Kueue's singleCompactTopologyAssignmentEncoding (what V1Beta2From gives with the gate off). */
    public static WireTopologyAssignment singleSlice(TopologyAssignment ta) {
        List<WireTopologyAssignment.Slice> slices = new ArrayList<>();
        if (!ta.domains().isEmpty()) {
            slices.add(compactSlice(ta.levels(), ta.domains()));
        }
        return new WireTopologyAssignment(ta.levels(), slices);
    }

    /** Kueue's InternalFrom: every domain of every slice, in order. */
    public static TopologyAssignment fromWire(WireTopologyAssignment wire) {
        if (wire == null) {
            return null;
        }
        List<TopologyDomainAssignment> domains = new ArrayList<>();
        for (WireTopologyAssignment.Slice slice : wire.slices()) {
            for (int i = 0; i < slice.domainCount(); i++) {
                List<String> values = new ArrayList<>();
                for (int level = 0; level < wire.levels().size(); level++) {
                    values.add(slice.valuesPerLevel().get(level).valueAt(i));
                }
                domains.add(new TopologyDomainAssignment(values, slice.podCounts().countAt(i)));
            }
        }
        return new TopologyAssignment(wire.levels(), domains);
    }

    static WireTopologyAssignment withHostnamePrefixRuns(TopologyAssignment ta) {
        List<TopologyDomainAssignment> domains = ta.domains();
        List<String> keys = null;
        if (domains.size() > 1 && !ta.levels().isEmpty()
                && Topology.HOSTNAME.equals(ta.levels().get(ta.levels().size() - 1))) {
            keys = reusableHostnamePrefixKeys(ta.levels().size() - 1, domains);
        }
        List<WireTopologyAssignment.Slice> slices = new ArrayList<>();
        for (List<TopologyDomainAssignment> run : runs(domains, keys)) {
            for (int from = 0; from < run.size(); from += MAX_DOMAINS_PER_SLICE) {
                slices.add(compactSlice(ta.levels(), run.subList(from, Math.min(run.size(), from + MAX_DOMAINS_PER_SLICE))));
            }
        }
        return new WireTopologyAssignment(ta.levels(), slices);
    }

    /** Kueue's compactDomainRuns: consecutive domains of the same key; no keys, one run. */
    static List<List<TopologyDomainAssignment>> runs(List<TopologyDomainAssignment> domains, List<String> keys) {
        List<List<TopologyDomainAssignment>> runs = new ArrayList<>();
        if (domains.isEmpty()) {
            return runs;
        }
        if (keys == null || keys.isEmpty()) {
            runs.add(domains);
            return runs;
        }
        int start = 0;
        for (int i = 1; i < domains.size(); i++) {
            if (!keys.get(i).equals(keys.get(start))) {
                runs.add(domains.subList(start, i));
                start = i;
            }
        }
        runs.add(domains.subList(start, domains.size()));
        return runs;
    }

    /**
     * Kueue's reusableHostnamePrefixKeys: per domain its longest '-'-ended hostname prefix that occurs at least twice,
     * backing off to shorter prefixes while the runs would need more than {@link #MAX_SLICES} slices; null when no
     * depth fits. A domain without a reusable prefix gets "".
     */
    static List<String> reusableHostnamePrefixKeys(int levelIdx, List<TopologyDomainAssignment> domains) {
        List<List<Integer>> ends = new ArrayList<>();
        Map<String, Integer> counts = new HashMap<>();
        int maxDepth = 0;
        for (TopologyDomainAssignment d : domains) {
            String hostname = d.values().get(levelIdx);
            List<Integer> e = new ArrayList<>();
            for (int end = 0; end + 1 < hostname.length(); end++) {
                if (hostname.charAt(end) != '-') {
                    continue;
                }
                e.add(end + 1);
                counts.merge(hostname.substring(0, end + 1), 1, (a, b) -> Math.min(2, a + b));
            }
            ends.add(e);
            maxDepth = Math.max(maxDepth, e.size());
        }
        for (int depth = maxDepth; depth >= 1; depth--) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < domains.size(); i++) {
                String hostname = domains.get(i).values().get(levelIdx);
                List<Integer> e = ends.get(i);
                String key = "";
                for (int j = Math.min(e.size(), depth) - 1; j >= 0; j--) {
                    String prefix = hostname.substring(0, e.get(j));
                    if (counts.getOrDefault(prefix, 0) >= 2) {
                        key = prefix;
                        break;
                    }
                }
                keys.add(key);
            }
            int sliceCount = 0;
            int start = 0;
            for (int i = 1; i < domains.size(); i++) {
                if (!keys.get(i).equals(keys.get(start))) {
                    sliceCount += chunks(i - start);
                    start = i;
                }
            }
            sliceCount += chunks(domains.size() - start);
            if (sliceCount <= MAX_SLICES) {
                return keys;
            }
        }
        return null;
    }

    private static int chunks(int length) {
        return (length + MAX_DOMAINS_PER_SLICE - 1) / MAX_DOMAINS_PER_SLICE;
    }

    /** Kueue's compactSliceEncoding: universal values and counts where all agree, else common prefix and suffix. */
    static WireTopologyAssignment.Slice compactSlice(List<String> levels, List<TopologyDomainAssignment> domains) {
        List<WireTopologyAssignment.LevelValues> perLevel = new ArrayList<>();
        for (int level = 0; level < levels.size(); level++) {
            List<String> values = new ArrayList<>();
            for (TopologyDomainAssignment d : domains) {
                values.add(d.values().get(level));
            }
            perLevel.add(compactValues(values));
        }
        int first = domains.get(0).count();
        boolean same = true;
        List<Integer> counts = new ArrayList<>();
        for (TopologyDomainAssignment d : domains) {
            counts.add(d.count());
            same &= d.count() == first;
        }
        WireTopologyAssignment.PodCounts podCounts = same ? new WireTopologyAssignment.PodCounts(first, null)
                : new WireTopologyAssignment.PodCounts(null, counts);
        return new WireTopologyAssignment.Slice(domains.size(), perLevel, podCounts);
    }

    /** Kueue's fillSingleCompactSliceValues (byte-wise on the strings, which are label values: ASCII). */
    static WireTopologyAssignment.LevelValues compactValues(List<String> values) {
        String prefix = null;
        String suffix = null;
        int maxLen = 0;
        int minLen = 0;
        for (String v : values) {
            if (prefix == null) {
                prefix = v;
                suffix = v;
                maxLen = v.length();
                minLen = v.length();
                continue;
            }
            int n = v.length();
            minLen = Math.min(minLen, n);
            maxLen = Math.max(maxLen, n);
            if (n < prefix.length()) {
                prefix = prefix.substring(0, n);
            }
            if (n < suffix.length()) {
                suffix = suffix.substring(suffix.length() - n);
            }
            for (int i = 0; i < prefix.length(); i++) {
                if (v.charAt(i) != prefix.charAt(i)) {
                    prefix = prefix.substring(0, i);
                    break;
                }
            }
            for (int i = 0; i < suffix.length(); i++) {
                if (v.charAt(v.length() - 1 - i) != suffix.charAt(suffix.length() - 1 - i)) {
                    suffix = suffix.substring(suffix.length() - i);
                    break;
                }
            }
        }
        if (prefix.length() == maxLen) {
            return new WireTopologyAssignment.LevelValues(prefix, null);
        }
        // prefix and suffix must not overlap (e.g. "ababa" and "aba")
        if (prefix.length() + suffix.length() > minLen) {
            prefix = prefix.substring(0, minLen - suffix.length());
        }
        List<String> roots = new ArrayList<>();
        for (String v : values) {
            roots.add(v.substring(prefix.length(), v.length() - suffix.length()));
        }
        return new WireTopologyAssignment.LevelValues(null, new WireTopologyAssignment.Individual(
                prefix.isEmpty() ? null : prefix, suffix.isEmpty() ? null : suffix, roots));
    }
}
