package dev.sluice.engine.tas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.NodeSelectorTerm;
import dev.sluice.engine.Quantity;
import dev.sluice.engine.Taint;
import dev.sluice.engine.Toleration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shape of a case of Kueue's TestFindTopologyAssignments (pkg/cache/scheduler/tas_cache_test.go): nodes, non-TAS
 * pods, the topology levels and flavor node labels, and pod sets with what each should get. The topology is named
 * "default" as there. Requests are written in Kueue's int64 units (cpu in milli, the rest whole) and converted to
 * the engine's milli-units.
 */
final class TasCase {
    static final String DATACENTER = "cloud.com/datacenter";
    static final String AIZONE = "cloud.com/aizone";
    static final String BLOCK = "cloud.com/topology-block";
    static final String RACK = "cloud.com/topology-rack";
    static final String SUBBLOCK = "cloud.com/topology-subblock";
    static final String HOSTNAME = Topology.HOSTNAME;
    static final List<String> ONE_LEVEL = List.of(HOSTNAME);
    static final List<String> TWO_LEVELS = List.of(BLOCK, RACK);
    static final List<String> THREE_LEVELS = List.of(BLOCK, RACK, HOSTNAME);

    private final List<String> levels;
    private Map<String, String> nodeLabels = Map.of();
    private final List<TasNode> nodes = new ArrayList<>();
    private final List<PodBuilder> pods = new ArrayList<>();
    private final List<PodSetCase> podSets = new ArrayList<>();
    private final List<TasUsage> priorOwnUsage = new ArrayList<>();

    private TasCase(List<String> levels) {
        this.levels = levels;
    }

    static TasCase levels(List<String> levels) {
        return new TasCase(levels);
    }

    TasCase nodeLabels(Map<String, String> labels) {
        nodeLabels = labels;
        return this;
    }

    TasCase nodes(List<NodeBuilder> builders) {
        for (NodeBuilder b : builders) {
            nodes.add(b.build());
        }
        return this;
    }

    TasCase pods(PodBuilder... p) {
        pods.addAll(Arrays.asList(p));
        return this;
    }

    TasCase podSet(PodSetCase ps) {
        podSets.add(ps);
        return this;
    }

    /** Kueue's priorOwnUsage: count pods of these (Kueue-unit) requests already admitted on the domain. */
    TasCase priorOwnUsage(List<String> values, Map<String, Long> singlePodRequests, int count) {
        priorOwnUsage.add(new TasUsage(new TopologyAssignment(levels.subList(levels.size() - values.size(),
                levels.size()), List.of(new TopologyDomainAssignment(values, count))), singlePodRequests));
        return this;
    }

    /** As Kueue's test: the flavor cache (with the prior usage as "prior-wl") gives the snapshot. */
    TasFlavorSnapshot snapshot() {
        TasFlavorCache cache = new TasFlavorCache(new Topology("default", levels), nodeLabels, List.of());
        if (!priorOwnUsage.isEmpty()) {
            cache.addUsage("prior-wl", priorOwnUsage);
        }
        Map<String, Map<String, Long>> nonTas = new LinkedHashMap<>();
        for (PodBuilder p : pods) {
            // Kueue's non-TAS pod cache: scheduled pods that are not terminal, each counting one pod
            if (p.nodeName != null && !p.phase.equals("Succeeded") && !p.phase.equals("Failed")) {
                Requests.add(nonTas.computeIfAbsent(p.nodeName, k -> new TreeMap<>()), Requests.withOnePod(p.requests));
            }
        }
        return cache.snapshot(nodes, nonTas);
    }

    Map<String, PlacementResult> run() {
        List<TasPodSetRequest> requests = new ArrayList<>();
        for (PodSetCase ps : podSets) {
            requests.add(ps.request());
        }
        return snapshot().findTopologyAssignments(requests, false);
    }

    void check() {
        Map<String, PlacementResult> want = new LinkedHashMap<>();
        for (PodSetCase ps : podSets) {
            want.put(ps.name, new PlacementResult(ps.want, ps.wantReason));
        }
        assertThat(run()).isEqualTo(want);
    }

    // ---- builders

    static NodeBuilder node(String name) {
        return new NodeBuilder(name);
    }

    static PodBuilder pod(String name) {
        return new PodBuilder();
    }

    static PodSetCase podSet(String name, int count) {
        return new PodSetCase(name, count);
    }

    static TopologyDomainAssignment d(int count, String... values) {
        return new TopologyDomainAssignment(List.of(values), count);
    }

    static TopologyAssignment assignment(List<String> levels, TopologyDomainAssignment... domains) {
        return new TopologyAssignment(levels, List.of(domains));
    }

    /** Kueue's int64 request units (cpu milli, everything else whole) to milli-units. */
    static Map<String, Long> kueueRequests(Object... kv) {
        Map<String, Long> out = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            String name = (String) kv[i];
            long v = ((Number) kv[i + 1]).longValue();
            out.put(name, "cpu".equals(name) ? v : v * 1000);
        }
        return out;
    }

    static final class NodeBuilder {
        private final String name;
        private final Map<String, String> labels = new LinkedHashMap<>();
        private final Map<String, Long> allocatable = new TreeMap<>();
        private final List<Taint> taints = new ArrayList<>();
        private boolean ready;
        private boolean unschedulable;

        NodeBuilder(String name) {
            this.name = name;
        }

        NodeBuilder label(String k, String v) {
            labels.put(k, v);
            return this;
        }

        /** resource, quantity pairs. */
        NodeBuilder allocatable(String... kv) {
            for (int i = 0; i < kv.length; i += 2) {
                allocatable.put(kv[i], Quantity.parseMilli(kv[i + 1]));
            }
            return this;
        }

        NodeBuilder ready() {
            ready = true;
            return this;
        }

        NodeBuilder notReady() {
            ready = false;
            return this;
        }

        NodeBuilder unschedulable() {
            unschedulable = true;
            return this;
        }

        NodeBuilder taint(String key, String value, String effect) {
            taints.add(new Taint(key, value, effect));
            return this;
        }

        TasNode build() {
            return new TasNode(name, labels, allocatable, taints, ready, unschedulable);
        }
    }

    static final class PodBuilder {
        String nodeName;
        String phase = "Pending";
        final Map<String, Long> requests = new TreeMap<>();

        PodBuilder on(String node) {
            nodeName = node;
            return this;
        }

        PodBuilder phase(String p) {
            phase = p;
            return this;
        }

        PodBuilder request(String resource, String quantity) {
            requests.put(resource, Quantity.parseMilli(quantity));
            return this;
        }
    }

    static final class PodSetCase {
        final String name;
        final int count;
        private Map<String, Long> requests = Map.of();
        private boolean hasTopologyRequest;
        private String required;
        private String preferred;
        private Boolean unconstrained;
        private String group;
        private String sliceTopology;
        private Integer sliceSize;
        private List<SliceConstraint> sliceConstraints = List.of();
        private Map<String, String> nodeSelector = Map.of();
        private List<NodeSelectorTerm> affinity = List.of();
        private List<Toleration> tolerations = List.of();
        TopologyAssignment want;
        String wantReason = "";

        PodSetCase(String name, int count) {
            this.name = name;
            this.count = count;
        }

        /** A topology request is given (possibly empty); without this call it is implied. */
        PodSetCase topologyRequest() {
            hasTopologyRequest = true;
            return this;
        }

        PodSetCase required(String level) {
            required = level;
            return this;
        }

        PodSetCase preferred(String level) {
            preferred = level;
            return this;
        }

        PodSetCase unconstrained(boolean u) {
            unconstrained = u;
            return this;
        }

        PodSetCase sliceTopology(String level) {
            sliceTopology = level;
            return this;
        }

        PodSetCase sliceSize(int size) {
            sliceSize = size;
            return this;
        }

        PodSetCase sliceConstraints(SliceConstraint... c) {
            sliceConstraints = List.of(c);
            return this;
        }

        /** Kueue's test case field podSetGroupName (TASPodSetRequests.PodSetGroupName). */
        PodSetCase group(String g) {
            group = g;
            return this;
        }

        PodSetCase requests(Map<String, Long> r) {
            requests = r;
            return this;
        }

        PodSetCase nodeSelector(Map<String, String> s) {
            nodeSelector = s;
            return this;
        }

        PodSetCase affinity(NodeSelectorTerm... terms) {
            affinity = List.of(terms);
            return this;
        }

        PodSetCase tolerations(Toleration... t) {
            tolerations = List.of(t);
            return this;
        }

        PodSetCase wants(TopologyAssignment a) {
            want = a;
            return this;
        }

        PodSetCase wantsReason(String r) {
            wantReason = r;
            return this;
        }

        TasPodSetRequest request() {
            PodSetTopologyRequest tr = null;
            if (hasTopologyRequest || group != null) {
                tr = new PodSetTopologyRequest(required, preferred, unconstrained, null, null, null, group,
                        sliceTopology, sliceSize, sliceConstraints);
            }
            if (!hasTopologyRequest && group != null) {
                throw new IllegalStateException("a group without a topology request cannot be expressed");
            }
            return new TasPodSetRequest(name, count, requests, tr, nodeSelector, affinity, tolerations);
        }
    }
}
