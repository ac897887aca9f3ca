package dev.sluice.sim;

import dev.sluice.engine.PodSetSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How full the nodes of each Topology are over time, from the placements of the timeline, for the chart. One row
 * per node while a Topology has at most {@link #MAX_ROWS} of them; else one row per domain of the lowest level that
 * has at most that many (a rack, then a block), the row adding up its nodes. A row's fullness at a moment is the
 * largest share of its allocatable that the placed pods request, over the resources they request (pod slots only
 * when they request nothing else).
 */
final class NodeOccupancy {

    static final int MAX_ROWS = 128;

    /** A step of a row: from {@code timeMillis} on, this share of the row is taken. */
    record Step(long timeMillis, double share) {
    }

    /** One row: its domain (values of the levels down to the row's, joined by "/"), its top-level group, its nodes. */
    record Row(String domain, String group, int nodes, List<Step> steps) {
    }

    /** The rows of one Topology: at which level they are and how many nodes and leaves that level stands for. */
    record Panel(String topology, String level, int levelIndex, int nodes, List<Row> rows) {
        boolean aggregated(List<String> levels) {
            return levelIndex < levels.size() - 1;
        }
    }

    private NodeOccupancy() {
    }

    static List<Panel> of(SimResult r) {
        Scenario s = r.scenario();
        java.util.Set<String> used = new java.util.HashSet<>();
        s.flavors().forEach(f -> {
            if (f.topologyName() != null) {
                used.add(f.topologyName());
            }
        });
        Map<WorkloadKey, SimWorkload> workloads = new HashMap<>();
        r.runs().forEach(run -> workloads.put(run.workload().key(), run.workload()));
        List<Panel> out = new ArrayList<>();
        for (Topology t : s.topologies()) {
            if (used.contains(t.name())) {
                Panel p = panel(t, s.nodes(), r.events(), workloads);
                if (p != null) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    private static Panel panel(Topology t, List<TasNode> all, List<SimEvent> events,
                               Map<WorkloadKey, SimWorkload> workloads) {
        List<TasNode> nodes = all.stream().filter(n -> t.levels().stream().allMatch(n.labels()::containsKey)).toList();
        if (nodes.isEmpty()) {
            return null;
        }
        int level = t.levels().size() - 1;
        while (level > 0 && distinct(nodes, t, level) > MAX_ROWS) {
            level--;
        }
        // rows in domain order, each with its nodes' allocatable added up
        Map<String, Map<String, Long>> capacity = new TreeMap<>();
        Map<String, Integer> nodeCount = new HashMap<>();
        Map<String, String> rowOfLeaf = new HashMap<>();
        Map<String, String> rowOfHost = new HashMap<>();
        for (TasNode n : nodes) {
            String row = id(n, t, level);
            Map<String, Long> c = capacity.computeIfAbsent(row, k -> new TreeMap<>());
            n.allocatable().forEach((res, q) -> c.merge(res, q, Long::sum));
            nodeCount.merge(row, 1, Integer::sum);
            rowOfLeaf.put(id(n, t, t.levels().size() - 1), row);
            String host = n.labels().get(Topology.HOSTNAME);
            if (host != null) {
                rowOfHost.put(host, row);
            }
        }
        Map<String, Map<String, Long>> usedNow = new HashMap<>();
        Map<String, List<Step>> steps = new LinkedHashMap<>();
        capacity.keySet().forEach(k -> steps.put(k, new ArrayList<>()));
        Map<WorkloadKey, Map<String, Map<String, Long>>> active = new HashMap<>();
        for (SimEvent e : events) {
            Map<String, Map<String, Long>> delta = null;
            int sign;
            if (e.type() == SimEvent.Type.Admitted && !e.placements().isEmpty()) {
                delta = usage(e, t, workloads.get(e.workload()), rowOfLeaf, rowOfHost);
                if (delta.isEmpty()) {
                    continue;
                }
                active.put(e.workload(), delta);
                sign = 1;
            } else if (e.type() == SimEvent.Type.Finished || e.type() == SimEvent.Type.Preempted
                    || e.type() == SimEvent.Type.Evicted || e.type() == SimEvent.Type.Deactivated) {
                delta = active.remove(e.workload());
                sign = -1;
            } else {
                continue;
            }
            if (delta == null) {
                continue;
            }
            for (var d : delta.entrySet()) {
                Map<String, Long> u = usedNow.computeIfAbsent(d.getKey(), k -> new TreeMap<>());
                d.getValue().forEach((res, q) -> u.merge(res, sign * q, Long::sum));
                List<Step> row = steps.get(d.getKey());
                double share = share(u, capacity.get(d.getKey()));
                if (!row.isEmpty() && row.get(row.size() - 1).timeMillis() == e.timeMillis()) {
                    row.set(row.size() - 1, new Step(e.timeMillis(), share));
                } else {
                    row.add(new Step(e.timeMillis(), share));
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String row : capacity.keySet()) {
            rows.add(new Row(row, row.split("/", -1)[0], nodeCount.get(row), steps.get(row)));
        }
        return new Panel(t.name(), t.levels().get(level), level, nodes.size(), rows);
    }

    /** What the admission's pods take per row (requests per pod × pods, and the pod slots). */
    private static Map<String, Map<String, Long>> usage(SimEvent e, Topology t, SimWorkload w,
                                                        Map<String, String> rowOfLeaf, Map<String, String> rowOfHost) {
        Map<String, Map<String, Long>> out = new HashMap<>();
        for (var p : e.placements().entrySet()) {
            if (!t.name().equals(p.getValue().topology()) || w == null) {
                continue;
            }
            Map<String, Long> perPod = w.spec().podSets().stream().filter(ps -> ps.name().equals(p.getKey()))
                    .map(PodSetSpec::requestsPerPod).findFirst().orElse(Map.of());
            for (TopologyDomainAssignment d : p.getValue().domains()) {
                boolean byHost = p.getValue().levels().equals(List.of(Topology.HOSTNAME));
                String row = byHost ? rowOfHost.get(d.values().get(0)) : rowOfLeaf.get(String.join("/", d.values()));
                if (row == null) {
                    continue;
                }
                Map<String, Long> u = out.computeIfAbsent(row, k -> new TreeMap<>());
                perPod.forEach((res, q) -> u.merge(res, q * d.count(), Long::sum));
                u.merge(dev.sluice.bridge.Nodes.PODS, 1000L * d.count(), Long::sum);
            }
        }
        return out;
    }

    /** The largest share taken over the requested resources (pod slots only when nothing else is asked). */
    static double share(Map<String, Long> used, Map<String, Long> capacity) {
        double max = 0;
        boolean other = false;
        for (var e : used.entrySet()) {
            if (e.getKey().equals(dev.sluice.bridge.Nodes.PODS) || e.getValue() <= 0) {
                continue;
            }
            other = true;
            long cap = capacity.getOrDefault(e.getKey(), 0L);
            max = Math.max(max, cap == 0 ? 1 : Math.min(1, (double) e.getValue() / cap));
        }
        if (!other) {
            long pods = used.getOrDefault(dev.sluice.bridge.Nodes.PODS, 0L);
            long cap = capacity.getOrDefault(dev.sluice.bridge.Nodes.PODS, 0L);
            max = pods <= 0 ? 0 : cap == 0 ? 1 : Math.min(1, (double) pods / cap);
        }
        return max;
    }

    private static long distinct(List<TasNode> nodes, Topology t, int level) {
        return nodes.stream().map(n -> id(n, t, level)).distinct().count();
    }

    /** The node's domain at {@code level}: its values from the top level down to it, joined by "/". */
    private static String id(TasNode n, Topology t, int level) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i <= level; i++) {
            if (i > 0) {
                sb.append('/');
            }
            sb.append(n.labels().get(t.levels().get(i)));
        }
        return sb.toString();
    }
}
