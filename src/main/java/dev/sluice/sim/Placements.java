package dev.sluice.sim;

import dev.sluice.engine.Assignment;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.PodSetAssignment;
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
 * Where the pods of an admission go, per pod set with a topology assignment, for the timeline, the JSON and the
 * chart. The assignment names only the hostname when the topology ends with it (Kueue's form); the domains above
 * are read from that node's labels, so every level can be shown.
 */
final class Placements {

    /**
     * One pod set's placement: its flavor's Topology, the assignment as the engine gives it (levels and per domain
     * the values and pod count), and per level of the Topology the pods in each of its domains.
     */
    record PodSet(String topology, List<String> levels, List<TopologyDomainAssignment> domains,
                  List<String> topologyLevels, Map<String, Map<String, Integer>> podsPerLevel) {

        int pods() {
            return domains.stream().mapToInt(TopologyDomainAssignment::count).sum();
        }

        /**
         * "block b0, rack b0-r1 (8 pods, 2 hosts)": its domain at each level down to the lowest holding all its
         * pods; or, spread at the top, "2 blocks b0, b1 (16 pods, 16 hosts)".
         */
        String summary() {
            String lowest = topologyLevels.get(topologyLevels.size() - 1);
            int leaves = podsPerLevel.getOrDefault(lowest, Map.of()).size();
            String tail = " (" + pods() + " pod" + (pods() == 1 ? "" : "s") + ", " + leaves + " "
                    + shortName(lowest) + (leaves == 1 ? "" : "s") + ")";
            List<String> path = new ArrayList<>();
            for (String level : topologyLevels.subList(0, topologyLevels.size() - (leaves == 1 ? 0 : 1))) {
                Map<String, Integer> d = podsPerLevel.getOrDefault(level, Map.of());
                if (d.size() != 1) {
                    break;
                }
                path.add(shortName(level) + " " + d.keySet().iterator().next());
            }
            if (!path.isEmpty()) {
                return String.join(", ", path) + tail;
            }
            String top = topologyLevels.get(0);
            List<String> values = new ArrayList<>(podsPerLevel.getOrDefault(top, Map.of()).keySet());
            String listed = String.join(", ", values.subList(0, Math.min(4, values.size())))
                    + (values.size() > 4 ? ", ..." : "");
            return values.size() + " " + shortName(top) + "s " + listed + tail;
        }
    }

    private final Map<String, Topology> topologyOfFlavor = new HashMap<>();
    /** Per Topology, per hostname value, the node's labels. */
    private final Map<String, Map<String, String>> nodesByHostname = new HashMap<>();

    Placements(Scenario scenario) {
        for (FlavorSpec f : scenario.flavors()) {
            if (f.topologyName() != null && scenario.topology(f.topologyName()) != null) {
                topologyOfFlavor.put(f.name(), scenario.topology(f.topologyName()));
            }
        }
        for (TasNode n : scenario.nodes()) {
            String host = n.labels().get(Topology.HOSTNAME);
            if (host != null) {
                nodesByHostname.put(host, n.labels());
            }
        }
    }

    /** Per pod set with a topology assignment, its placement; empty without one. */
    Map<String, PodSet> of(Assignment assignment) {
        if (assignment == null) {
            return Map.of();
        }
        Map<String, PodSet> out = new LinkedHashMap<>();
        for (PodSetAssignment ps : assignment.podSets()) {
            var ta = ps.topologyAssignment();
            if (ta == null) {
                continue;
            }
            Topology t = ps.flavors().values().stream().map(topologyOfFlavor::get).filter(x -> x != null)
                    .findFirst().orElse(null);
            List<String> levels = t == null ? ta.levels() : t.levels();
            Map<String, Map<String, Integer>> perLevel = new LinkedHashMap<>();
            levels.forEach(l -> perLevel.put(l, new TreeMap<>()));
            for (TopologyDomainAssignment d : ta.domains()) {
                Map<String, String> values = valuesOf(ta.levels(), d.values());
                for (String l : levels) {
                    String v = values.get(l);
                    if (v != null) {
                        perLevel.get(l).merge(v, d.count(), Integer::sum);
                    }
                }
            }
            out.put(ps.name(), new PodSet(t == null ? null : t.name(), ta.levels(), ta.domains(), levels, perLevel));
        }
        return out;
    }

    /** The domain's value per level: the assignment's own, and for a hostname the labels of that node. */
    private Map<String, String> valuesOf(List<String> levels, List<String> values) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < levels.size() && i < values.size(); i++) {
            out.put(levels.get(i), values.get(i));
        }
        String host = out.get(Topology.HOSTNAME);
        if (host != null && nodesByHostname.containsKey(host)) {
            nodesByHostname.get(host).forEach(out::putIfAbsent);
        }
        return out;
    }

    /** A level's label as a word: cloud.google.com/gce-topology-block → block, kubernetes.io/hostname → host. */
    static String shortName(String label) {
        String s = label.substring(label.lastIndexOf('/') + 1);
        if (s.equals("hostname")) {
            return "host";
        }
        for (String prefix : List.of("gce-topology-", "topology-")) {
            if (s.startsWith(prefix) && s.length() > prefix.length()) {
                return s.substring(prefix.length());
            }
        }
        return s;
    }

    /** The timeline's column: "main: rack b0-r1 (8 pods, 2 hosts); workers: ...". */
    static String text(Map<String, PodSet> placements) {
        List<String> parts = new ArrayList<>();
        placements.forEach((name, p) -> parts.add(name + ": " + p.summary()));
        return String.join("; ", parts);
    }

    /** The JSON of every pod set's placement: topology, levels, domains [{values, count}], podsPerLevel. */
    static String json(Map<String, PodSet> placements) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (var e : placements.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            PodSet p = e.getValue();
            Json.string(sb, e.getKey());
            sb.append(": {");
            sb.append("\"topology\": ");
            if (p.topology() == null) {
                sb.append("null");
            } else {
                Json.string(sb, p.topology());
            }
            sb.append(", \"levels\": ");
            strings(sb, p.levels());
            sb.append(", \"domains\": [");
            for (int i = 0; i < p.domains().size(); i++) {
                TopologyDomainAssignment d = p.domains().get(i);
                sb.append(i == 0 ? "" : ", ").append("{\"values\": ");
                strings(sb, d.values());
                sb.append(", \"count\": ").append(d.count()).append('}');
            }
            sb.append("], \"podsPerLevel\": ").append(Json.object(p.podsPerLevel())).append('}');
        }
        return sb.append('}').toString();
    }

    private static void strings(StringBuilder sb, List<String> values) {
        sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Json.string(sb, values.get(i));
        }
        sb.append(']');
    }
}
