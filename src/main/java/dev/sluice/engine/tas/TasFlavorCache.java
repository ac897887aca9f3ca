package dev.sluice.engine.tas;

import dev.sluice.engine.Toleration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TAS usage book of one flavor across cycles (Kueue's TASFlavorCache, pkg/cache/scheduler/tas_flavor.go): the
 * usage per domain id of the admitted TAS workloads, kept whatever nodes exist now, and per workload what it added
 * so that adding again replaces and removing is idempotent. {@link #snapshot} builds a cycle's view from the nodes of
 * the moment, applying the usage to the domains it holds.
 */
public final class TasFlavorCache {
    private final Topology topology;
    private final Map<String, String> nodeLabels;
    private final List<Toleration> tolerations;
    private final Map<String, TreeMap<String, Long>> usage = new LinkedHashMap<>();
    private final Map<String, List<TasUsage>> workloadUsage = new LinkedHashMap<>();

    public TasFlavorCache(Topology topology, Map<String, String> nodeLabels, List<Toleration> tolerations) {
        this.topology = topology;
        this.nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        this.tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    public Topology topology() {
        return topology;
    }

    /** Kueue's addUsage: a workload booked again is first removed ("self-healing by replacing it"). */
    public void addUsage(String workloadKey, List<TasUsage> podSets) {
        if (workloadUsage.containsKey(workloadKey)) {
            removeUsage(workloadKey);
        }
        workloadUsage.put(workloadKey, List.copyOf(podSets));
        update(podSets, true);
    }

    /** Kueue's removeUsage: a key not booked is ignored. */
    public void removeUsage(String workloadKey) {
        List<TasUsage> podSets = workloadUsage.remove(workloadKey);
        if (podSets != null) {
            update(podSets, false);
        }
    }

    public boolean holds(String workloadKey) {
        return workloadUsage.containsKey(workloadKey);
    }

    /** The usage per domain id (a copy; a domain given back keeps its zero entries, as Kueue's map does). */
    public Map<String, Map<String, Long>> usage() {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        usage.forEach((k, v) -> out.put(k, new TreeMap<>(v)));
        return out;
    }

    private void update(List<TasUsage> podSets, boolean add) {
        for (TasUsage u : podSets) {
            for (TopologyDomainAssignment d : u.assignment().domains()) {
                TreeMap<String, Long> domainUsage = usage.computeIfAbsent(Domain.idOf(d.values()), k -> new TreeMap<>());
                Map<String, Long> delta = Requests.usageOf(u.singlePodRequests(), d.count());
                if (add) {
                    Requests.add(domainUsage, delta);
                } else {
                    Requests.sub(domainUsage, delta);
                }
            }
        }
    }

    /**
     * Kueue's snapshot: the tree of the given nodes (Ready, schedulable, matching the flavor), less the non-TAS usage
     * per node, with the booked usage on the domains the tree holds.
     */
    public TasFlavorSnapshot snapshot(List<TasNode> nodes, Map<String, Map<String, Long>> nonTasUsagePerNode) {
        TasFlavorSnapshot s = new TasFlavorSnapshot(topology, nodeLabels, tolerations, nodes);
        s.addTasUsage(usage);
        if (nonTasUsagePerNode != null) {
            nonTasUsagePerNode.forEach(s::addNonTasUsage);
        }
        return s;
    }
}
