package dev.sluice.engine;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Where a workload was admitted: its ClusterQueue and the assignment of each pod set. */
public record Assignment(String clusterQueue, List<PodSetAssignment> podSets) {
    public Assignment {
        Objects.requireNonNull(clusterQueue, "admission clusterQueue");
        podSets = podSets == null ? List.of() : List.copyOf(podSets);
    }

    /** Total usage per flavor and resource (sorted). */
    public Map<FlavorResource, Long> usage() {
        Map<FlavorResource, Long> out = new TreeMap<>();
        for (PodSetAssignment ps : podSets) {
            for (Map.Entry<String, Long> e : ps.resourceUsage().entrySet()) {
                String flavor = ps.flavors().get(e.getKey());
                if (flavor != null) {
                    out.merge(new FlavorResource(flavor, e.getKey()), e.getValue(), Long::sum);
                }
            }
        }
        return out;
    }
}
