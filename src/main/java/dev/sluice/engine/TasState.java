package dev.sluice.engine;

import dev.sluice.engine.tas.TasFlavorCache;
import dev.sluice.engine.tas.TasFlavorSnapshot;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.engine.tas.TasUsage;
import dev.sluice.engine.tas.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What topology-aware scheduling needs beside quota (Kueue's tasCache): the Topology objects, the nodes, the non-TAS
 * pods' usage per node, and the TAS usage of admitted workloads per flavor. A flavor is a TAS flavor when its
 * topologyName names a known Topology. Without topologies nothing here is used.
 */
final class TasState {
    private final Map<String, Topology> topologies = new TreeMap<>();
    private List<TasNode> nodes = List.of();
    private Map<String, Map<String, Long>> nonTasUsage = Map.of();
    /** Per workload, the usage it booked per flavor: the caches are rebuilt from this when a definition changes. */
    private final Map<WorkloadKey, Map<String, List<TasUsage>>> booked = new LinkedHashMap<>();
    private final Map<String, TasFlavorCache> caches = new TreeMap<>();
    private final Map<String, FlavorSpec> flavors;

    TasState(Map<String, FlavorSpec> flavors) {
        this.flavors = flavors;
    }

    boolean any() {
        return !topologies.isEmpty();
    }

    void upsertTopology(Topology t) {
        topologies.put(t.name(), t);
        caches.clear();
    }

    void deleteTopology(String name) {
        if (topologies.remove(name) != null) {
            caches.clear();
        }
    }

    /** A flavor's definition changed: its cache is rebuilt on next use. */
    void flavorsChanged() {
        caches.clear();
    }

    void setNodes(List<TasNode> nodes, Map<String, Map<String, Long>> nonTasUsagePerNode) {
        this.nodes = List.copyOf(nodes);
        this.nonTasUsage = nonTasUsagePerNode == null ? Map.of() : Map.copyOf(nonTasUsagePerNode);
    }

    /** The flavor's topology, or null when it is not a TAS flavor (no topologyName, or the Topology is missing). */
    Topology topologyOf(FlavorSpec f) {
        return f == null || f.topologyName() == null ? null : topologies.get(f.topologyName());
    }

    boolean isTasFlavor(String flavor) {
        return topologyOf(flavors.get(flavor)) != null;
    }

    /** A fresh view of the flavor for this cycle's placements: the nodes now, with the booked usage. */
    TasFlavorSnapshot snapshot(String flavor) {
        TasFlavorCache c = cache(flavor);
        return c == null ? null : c.snapshot(nodes, nonTasUsage);
    }

    private TasFlavorCache cache(String flavor) {
        TasFlavorCache c = caches.get(flavor);
        if (c != null) {
            return c;
        }
        FlavorSpec f = flavors.get(flavor);
        Topology t = topologyOf(f);
        if (t == null) {
            return null;
        }
        c = new TasFlavorCache(t, f.nodeLabels(), f.tolerations());
        for (Map.Entry<WorkloadKey, Map<String, List<TasUsage>>> e : booked.entrySet()) {
            List<TasUsage> u = e.getValue().get(flavor);
            if (u != null) {
                c.addUsage(e.getKey().toString(), u);
            }
        }
        caches.put(flavor, c);
        return c;
    }

    /** An admitted workload's topology assignments count against their flavors' nodes. */
    void book(WorkloadKey key, Assignment assignment, WorkloadSpec spec) {
        Map<String, List<TasUsage>> perFlavor = new TreeMap<>();
        for (PodSetAssignment psa : assignment.podSets()) {
            if (psa.topologyAssignment() == null) {
                continue;
            }
            String flavor = tasFlavorOf(psa);
            PodSetSpec ps = podSet(spec, psa.name());
            if (flavor == null || ps == null) {
                continue;
            }
            perFlavor.computeIfAbsent(flavor, k -> new ArrayList<>())
                    .add(new TasUsage(psa.topologyAssignment(), ps.requestsPerPod()));
        }
        unbook(key);
        if (perFlavor.isEmpty()) {
            return;
        }
        booked.put(key, perFlavor);
        perFlavor.forEach((flavor, u) -> {
            TasFlavorCache c = cache(flavor);
            if (c != null) {
                c.addUsage(key.toString(), u);
            }
        });
    }

    void unbook(WorkloadKey key) {
        Map<String, List<TasUsage>> perFlavor = booked.remove(key);
        if (perFlavor == null) {
            return;
        }
        for (String flavor : perFlavor.keySet()) {
            TasFlavorCache c = caches.get(flavor);
            if (c != null) {
                c.removeUsage(key.toString());
            }
        }
    }

    /** The one TAS flavor among a pod set's flavors (Kueue's onlyTASFlavor), or null. */
    String tasFlavorOf(PodSetAssignment psa) {
        String found = null;
        for (String f : new TreeMap<>(psa.flavors()).values()) {
            if (isTasFlavor(f)) {
                if (found != null && !found.equals(f)) {
                    return null;
                }
                found = f;
            }
        }
        return found;
    }

    static PodSetSpec podSet(WorkloadSpec spec, String name) {
        for (PodSetSpec ps : spec.podSets()) {
            if (Objects.equals(ps.name(), name)) {
                return ps;
            }
        }
        return null;
    }
}
