package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.lq;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * TAS through the engine over random worlds: nodes in blocks and racks, one TAS flavor, a ClusterQueue with more
 * quota than the nodes hold, random TAS workloads submitted and finished. Whatever the cycles admit, the admitted
 * workloads' topology assignments never put more on a node than it holds, every admitted TAS pod set carries a
 * placement of all its pods, and two runs decide the same.
 */
class TasEngineProperties {
    private static final List<String> LEVELS = List.of("block", "rack", Topology.HOSTNAME);

    record Run(List<String> trace) {
    }

    static Run run(long seed, int steps) {
        Random r = new Random(seed);
        Engine e = new Engine();
        e.upsertTopology(new Topology("t", LEVELS));
        e.upsertFlavor(new FlavorSpec("tas", Map.of(), List.of(), List.of(), "t"));
        List<TasNode> nodes = new ArrayList<>();
        Map<String, Long> cpuOf = new HashMap<>();
        int n = 1 + r.nextInt(8);
        for (int i = 0; i < n; i++) {
            long cpu = 1000L * (1 + r.nextInt(4));
            cpuOf.put("n" + i, cpu);
            nodes.add(new TasNode("n" + i, Map.of("block", "b" + r.nextInt(2), "rack", "r" + r.nextInt(2),
                    Topology.HOSTNAME, "n" + i), Map.of("cpu", cpu, "pods", 110_000L), List.of(), true, false));
        }
        e.setNodes(nodes, Map.of());
        e.upsertClusterQueue(new ClusterQueueSpec("cq", null, List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("tas", List.of(new ResourceQuota("cpu", 1_000_000L)))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), StopPolicy.None));
        e.upsertLocalQueue(lq("default", "lq", "cq"));
        List<String> trace = new ArrayList<>();
        List<WorkloadKey> live = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            if (!live.isEmpty() && r.nextInt(3) == 0) {
                WorkloadKey k = live.remove(r.nextInt(live.size()));
                e.finish(k);
                trace.add("finish " + k);
            } else {
                String level = LEVELS.get(r.nextInt(LEVELS.size()));
                PodSetTopologyRequest tr = switch (r.nextInt(3)) {
                    case 0 -> PodSetTopologyRequest.ofRequired(level);
                    case 1 -> PodSetTopologyRequest.ofPreferred(level);
                    default -> PodSetTopologyRequest.ofUnconstrained();
                };
                WorkloadKey k = new WorkloadKey("default", "w" + step);
                e.submit(new WorkloadSpec(k, "uid-" + step, "lq", r.nextInt(3), step,
                        List.of(new PodSetSpec("main", 1 + r.nextInt(5), null, Map.of("cpu", 500L * (1 + r.nextInt(3))),
                                Map.of(), List.of(), List.of(), tr)), true));
                live.add(k);
            }
            CycleResult c = Fixtures.settle(e, step);
            for (Admission a : c.admissions()) {
                trace.add("admit " + a.workload() + " " + a.assignment());
            }
            checkNodes(e, live, cpuOf);
        }
        return new Run(trace);
    }

    static void checkNodes(Engine e, List<WorkloadKey> live, Map<String, Long> cpuOf) {
        Map<String, Long> used = new TreeMap<>();
        for (WorkloadKey k : live) {
            WorkloadState s = e.workload(k).orElseThrow();
            if (s.assignment() == null) {
                continue;
            }
            for (PodSetAssignment psa : s.assignment().podSets()) {
                PodSetSpec ps = s.spec().podSets().get(0);
                assertThat(psa.topologyAssignment()).as("an admitted TAS pod set has a placement").isNotNull();
                assertThat(psa.topologyAssignment().podCount()).isEqualTo(psa.count());
                for (TopologyDomainAssignment d : psa.topologyAssignment().domains()) {
                    used.merge(d.values().get(d.values().size() - 1), d.count() * ps.requestsPerPod().get("cpu"),
                            Long::sum);
                }
            }
        }
        used.forEach((node, cpu) -> assertThat(cpu).as("cpu placed on %s", node).isLessThanOrEqualTo(cpuOf.get(node)));
    }

    @Property(tries = 200)
    void admittedPlacementsNeverOverfillANode(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                              @ForAll @IntRange(min = 1, max = 30) int steps) {
        run(seed, steps);
    }

    @Property(tries = 100)
    void sameEventsSameDecisions(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                 @ForAll @IntRange(min = 1, max = 30) int steps) {
        assertThat(run(seed, steps)).isEqualTo(run(seed, steps));
    }
}
