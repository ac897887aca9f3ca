package dev.sluice.engine.tas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Properties of the TAS placement over random worlds (topologies of one to three levels, with or without the
 * hostname level; nodes of random capacity, some not Ready, some with non-TAS pods) and random sequences of pod sets
 * (required, preferred, unconstrained, implied; sliced; leader and workers) placed and removed.
 */
class TasPlacementProperties {
    private static final String BLOCK = "block";
    private static final String RACK = "rack";
    private static final String HOST = Topology.HOSTNAME;
    private static final List<List<String>> LEVELS = List.of(List.of(BLOCK, RACK, HOST), List.of(BLOCK, RACK),
            List.of(HOST), List.of(BLOCK, HOST), List.of(RACK));

    /** A random world: the topology and the nodes. */
    record World(Topology topology, List<TasNode> nodes, Map<String, Map<String, Long>> nonTasPods) {
        TasFlavorSnapshot snapshot(List<TasNode> order) {
            TasFlavorSnapshot s = new TasFlavorSnapshot(topology, Map.of(), List.of(), order);
            nonTasPods.forEach(s::addNonTasPod);
            return s;
        }

        TasFlavorSnapshot snapshot() {
            return snapshot(nodes);
        }

        Map<String, String> labelsOfLeaf(List<String> values) {
            for (TasNode n : nodes) {
                List<String> v = new ArrayList<>();
                for (String level : topology.levels()) {
                    v.add(n.labels().get(level));
                }
                List<String> tail = v.subList(v.size() - values.size(), v.size());
                if (tail.equals(values)) {
                    return n.labels();
                }
            }
            throw new AssertionError("no node for " + values);
        }
    }

    static World world(Random r) {
        List<String> levels = LEVELS.get(r.nextInt(LEVELS.size()));
        List<TasNode> nodes = new ArrayList<>();
        Map<String, Map<String, Long>> nonTas = new LinkedHashMap<>();
        int n = 1 + r.nextInt(12);
        for (int i = 0; i < n; i++) {
            String name = "n" + i;
            Map<String, String> labels = new HashMap<>();
            labels.put(BLOCK, "b" + r.nextInt(3));
            labels.put(RACK, "r" + r.nextInt(3));
            labels.put(HOST, name);
            long cpu = 500L * (1 + r.nextInt(16));
            long pods = 1000L * (1 + r.nextInt(10));
            nodes.add(new TasNode(name, labels, Map.of("cpu", cpu, "pods", pods), List.of(), r.nextInt(8) != 0, false));
            if (r.nextInt(4) == 0 && pods > 1000) {
                nonTas.put(name, Map.of("cpu", Math.min(cpu, 500L * (1 + r.nextInt(2)))));
            }
        }
        return new World(new Topology("default", levels), nodes, nonTas);
    }

    /** A random request of one pod set, or a leader (1 pod) and workers of the same group. */
    static List<TasPodSetRequest> request(Random r, Topology t, int id) {
        List<String> levels = t.levels();
        int levelIdx = r.nextInt(levels.size());
        String level = levels.get(levelIdx);
        int sliceSize = 1;
        String sliceLevel = null;
        if (r.nextInt(3) == 0) {
            sliceSize = 1 + r.nextInt(3);
            sliceLevel = levels.get(levelIdx + r.nextInt(levels.size() - levelIdx));
        }
        int count = sliceSize * (1 + r.nextInt(6));
        PodSetTopologyRequest tr = switch (r.nextInt(5)) {
            case 0 -> PodSetTopologyRequest.ofRequired(level);
            case 1 -> PodSetTopologyRequest.ofPreferred(level);
            case 2 -> PodSetTopologyRequest.ofUnconstrained();
            case 3 -> sliceLevel == null ? null : PodSetTopologyRequest.ofSlicesOnly(sliceLevel, sliceSize);
            default -> null;
        };
        if (tr != null && sliceLevel != null && tr.podsetSliceRequiredTopologyConstraints().isEmpty()
                && tr.podSetSliceRequiredTopology() == null && !Boolean.TRUE.equals(tr.unconstrained())) {
            tr = tr.withSlices(sliceLevel, sliceSize);
        }
        Map<String, Long> perPod = Map.of("cpu", 500L * r.nextInt(5));
        List<TasPodSetRequest> out = new ArrayList<>();
        if (tr != null && r.nextInt(4) == 0) {
            PodSetTopologyRequest grouped = tr.withGroup("g" + id);
            out.add(TasPodSetRequest.of("leader", 1, Map.of("cpu", 500L * r.nextInt(3)), grouped));
            out.add(TasPodSetRequest.of("workers", count, perPod, grouped));
        } else {
            out.add(TasPodSetRequest.of("main", count, perPod, tr));
        }
        return out;
    }

    /** What the run saw, step by step, to compare runs. */
    record Step(List<TasPodSetRequest> request, Map<String, PlacementResult> result) {
    }

    /** Places and removes at random, checking the invariants after each step; returns the trace. */
    static List<Step> run(World w, TasFlavorSnapshot s, long seed, int steps) {
        Random r = new Random(seed);
        List<Step> trace = new ArrayList<>();
        List<String> admitted = new ArrayList<>();
        Map<String, Map<String, Long>> initial = remainingOfAll(s);
        for (int step = 0; step < steps; step++) {
            if (!admitted.isEmpty() && r.nextInt(3) == 0) {
                s.removeWorkload(admitted.remove(r.nextInt(admitted.size())));
            } else {
                List<TasPodSetRequest> req = request(r, w.topology(), step);
                Map<String, PlacementResult> result = s.findTopologyAssignments(req, false);
                trace.add(new Step(req, result));
                if (result.size() == req.size() && result.values().stream().allMatch(PlacementResult::fits)) {
                    List<TasUsage> usage = new ArrayList<>();
                    for (TasPodSetRequest ps : req) {
                        TopologyAssignment a = result.get(ps.podSetName()).assignment();
                        checkShape(w, s, ps, a);
                        usage.add(new TasUsage(a, ps.singlePodRequests()));
                    }
                    assertThat(s.fits(usage)).as("a placement found fits the snapshot").isTrue();
                    String key = "wl" + step;
                    s.addWorkload(key, usage);
                    admitted.add(key);
                }
            }
            checkNeverOverCapacity(s);
        }
        for (String key : admitted) {
            s.removeWorkload(key);
        }
        assertThat(remainingOfAll(s)).as("removing every workload gives all capacity back").isEqualTo(initial);
        return trace;
    }

    static Map<String, Map<String, Long>> remainingOfAll(TasFlavorSnapshot s) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (String leaf : s.leafIds()) {
            Map<String, Long> rem = new TreeMap<>(s.remainingCapacity(leaf));
            rem.values().removeIf(v -> v == 0);
            out.put(leaf, rem);
        }
        return out;
    }

    static void checkNeverOverCapacity(TasFlavorSnapshot s) {
        for (String leaf : s.leafIds()) {
            for (Map.Entry<String, Long> e : s.remainingCapacity(leaf).entrySet()) {
                assertThat(e.getValue()).as("remaining %s on %s", e.getKey(), leaf).isGreaterThanOrEqualTo(0);
            }
        }
    }

    /** Every pod placed once, on a held node, and a required placement within one domain of its level; slices whole. */
    static void checkShape(World w, TasFlavorSnapshot s, TasPodSetRequest ps, TopologyAssignment a) {
        assertThat(a.podCount()).as("pods placed").isEqualTo(ps.count());
        List<String> levels = w.topology().levels();
        for (TopologyDomainAssignment d : a.domains()) {
            assertThat(d.count()).isPositive();
            assertThat(s.leafIds()).contains(Domain.idOf(d.values()));
        }
        PodSetTopologyRequest tr = ps.topologyRequest();
        if (tr == null) {
            return;
        }
        if (tr.required() != null) {
            int idx = levels.indexOf(tr.required());
            assertThat(a.domains().stream().map(d -> ancestor(w, d, idx)).distinct().count())
                    .as("domains of %s used by a required placement", tr.required()).isLessThanOrEqualTo(1);
        }
        if (!tr.sliceConstraints().isEmpty() && !"leader".equals(ps.podSetName())) {
            SliceConstraint c = tr.sliceConstraints().get(0);
            int idx = levels.indexOf(c.topology());
            Map<List<String>, Integer> perDomain = new HashMap<>();
            for (TopologyDomainAssignment d : a.domains()) {
                perDomain.merge(ancestor(w, d, idx), d.count(), Integer::sum);
            }
            assertThat(perDomain.values()).as("pods per %s domain are whole slices of %d", c.topology(), c.size())
                    .allSatisfy(n -> assertThat(n % c.size()).isZero());
        }
    }

    /** The values of the domain's ancestor at level idx (levels 0..idx). */
    static List<String> ancestor(World w, TopologyDomainAssignment d, int idx) {
        Map<String, String> labels = w.labelsOfLeaf(d.values());
        List<String> out = new ArrayList<>();
        for (int i = 0; i <= idx; i++) {
            out.add(labels.get(w.topology().levels().get(i)));
        }
        return out;
    }

    @Property(tries = 300)
    void neverOverCapacityAfterAnySequenceOfPlacementsAndRemovals(
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed, @ForAll @IntRange(min = 1, max = 40) int steps) {
        World w = world(new Random(seed));
        run(w, w.snapshot(), seed, steps);
    }

    /** Same input, same output: also when the nodes come in another order (Kueue iterates maps) and on a copy. */
    @Property(tries = 200)
    void placementIsDeterministic(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                  @ForAll @IntRange(min = 1, max = 30) int steps) {
        World w = world(new Random(seed));
        List<TasNode> shuffled = new ArrayList<>(w.nodes());
        Collections.shuffle(shuffled, new Random(seed + 1));
        List<Step> first = run(w, w.snapshot(), seed, steps);
        assertThat(run(w, w.snapshot(shuffled), seed, steps)).isEqualTo(first);
        assertThat(run(w, w.snapshot().copy(), seed, steps)).isEqualTo(first);
    }

    /** Required, no slices, no leader: it fits exactly when one domain of the level holds the count, pod by pod per node. */
    @Property(tries = 300)
    void requiredFitsExactlyWhenOneDomainOfTheLevelHoldsAllPods(
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random r = new Random(seed);
        World w = world(r);
        TasFlavorSnapshot s = w.snapshot();
        List<String> levels = w.topology().levels();
        int idx = r.nextInt(levels.size());
        int count = 1 + r.nextInt(10);
        Map<String, Long> perPod = Map.of("cpu", 500L * r.nextInt(4));
        Map<List<String>, Integer> perDomain = new HashMap<>();
        for (String leaf : s.leafIds()) {
            List<String> values = leafValues(w, s, leaf);
            perDomain.merge(values.subList(0, idx + 1), Requests.countIn(Requests.withOnePod(perPod),
                    s.remainingCapacity(leaf)), Integer::sum);
        }
        boolean holds = perDomain.values().stream().anyMatch(n -> n >= count);
        Map<String, PlacementResult> result = s.findTopologyAssignments(
                List.of(TasPodSetRequest.of("main", count, perPod, PodSetTopologyRequest.ofRequired(levels.get(idx)))),
                false);
        assertThat(result.get("main").fits()).as(result.toString()).isEqualTo(holds);
    }

    /** Unconstrained, no slices, no leader: it fits exactly when all nodes together hold the count. */
    @Property(tries = 300)
    void unconstrainedFitsExactlyWhenTheNodesTogetherHoldAllPods(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random r = new Random(seed);
        World w = world(r);
        TasFlavorSnapshot s = w.snapshot();
        int count = 1 + r.nextInt(30);
        Map<String, Long> perPod = Map.of("cpu", 500L * r.nextInt(4));
        int total = 0;
        for (String leaf : s.leafIds()) {
            total += Requests.countIn(Requests.withOnePod(perPod), s.remainingCapacity(leaf));
        }
        Map<String, PlacementResult> result = s.findTopologyAssignments(
                List.of(TasPodSetRequest.of("main", count, perPod, PodSetTopologyRequest.ofUnconstrained())), false);
        assertThat(result.get("main").fits()).as(result.toString()).isEqualTo(total >= count && !s.leafIds().isEmpty());
    }

    private static List<String> leafValues(World w, TasFlavorSnapshot s, String leafId) {
        for (TasNode n : w.nodes()) {
            List<String> v = new ArrayList<>();
            for (String level : w.topology().levels()) {
                v.add(n.labels().get(level));
            }
            String id = w.topology().lowestLevelIsHostname() ? n.labels().get(HOST) : Domain.idOf(v);
            if (id.equals(leafId) && n.schedulableAndReady()) {
                return v;
            }
        }
        throw new AssertionError(leafId);
    }
}
