package dev.sluice.engine.tas;

import dev.sluice.engine.Toleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TAS view of one ResourceFlavor with a topology (Kueue's TASFlavorSnapshot with its topologyTree and the
 * TASFlavorCache's usage book, pkg/cache/scheduler/tas_flavor_snapshot.go, tas_topology_tree.go, tas_flavor.go):
 * the domains tree built from the Ready, schedulable nodes carrying the flavor's node labels and every level's label;
 * per leaf the free capacity (allocatable minus non-TAS pods) and the usage of admitted TAS workloads. Placements
 * ({@link #findTopologyAssignments}) read it; {@link #addWorkload}/{@link #removeWorkload} book admitted workloads.
 * Not thread-safe: a placement keeps its scratch state on the domains.
 */
public final class TasFlavorSnapshot {
    final Topology topology;
    final List<String> levelKeys;
    final boolean isLowestLevelNode;
    final List<Toleration> flavorTolerations;
    /** Leaves by id: the hostname for a hostname topology, else all values joined by ",". */
    final Map<String, Domain> leaves = new LinkedHashMap<>();
    final Map<String, Domain> roots = new LinkedHashMap<>();
    final List<Map<String, Domain>> domainsPerLevel = new ArrayList<>();
    private final Map<String, String> nodeToLeaf = new HashMap<>();
    private final Map<String, List<TasUsage>> workloadUsage = new LinkedHashMap<>();

    public TasFlavorSnapshot(Topology topology, Map<String, String> flavorNodeLabels, List<Toleration> flavorTolerations,
                             List<TasNode> nodes) {
        this.topology = topology;
        this.levelKeys = topology.levels();
        this.isLowestLevelNode = topology.lowestLevelIsHostname();
        this.flavorTolerations = flavorTolerations == null ? List.of() : List.copyOf(flavorTolerations);
        for (int i = 0; i < levelKeys.size(); i++) {
            domainsPerLevel.add(new LinkedHashMap<>());
        }
        Map<String, String> labels = flavorNodeLabels == null ? Map.of() : flavorNodeLabels;
        for (TasNode node : nodes) {
            if (node.schedulableAndReady() && matchesFlavor(node, labels)) {
                nodeToLeaf.put(node.name(), addNode(node));
            }
        }
        for (Domain leaf : leaves.values()) {
            domainsPerLevel.get(leaf.levelValues.size() - 1).put(leaf.id, leaf);
            link(leaf);
        }
    }

    /** Kueue's utiltas.NodeMatchesFlavor: every flavor label, and a label for every level. */
    private boolean matchesFlavor(TasNode node, Map<String, String> flavorLabels) {
        for (Map.Entry<String, String> e : flavorLabels.entrySet()) {
            if (!e.getValue().equals(node.labels().get(e.getKey()))) {
                return false;
            }
        }
        for (String level : levelKeys) {
            if (!node.labels().containsKey(level)) {
                return false;
            }
        }
        return true;
    }

    private String addNode(TasNode node) {
        List<String> values = new ArrayList<>();
        for (String level : levelKeys) {
            values.add(node.labels().get(level));
        }
        String id = isLowestLevelNode ? node.labels().get(Topology.HOSTNAME) : Domain.idOf(values);
        Domain leaf = leaves.get(id);
        if (leaf == null) {
            leaf = new Domain(id, values);
            if (isLowestLevelNode) {
                leaf.node = node;
            }
            leaf.freeCapacity = new TreeMap<>();
            leaf.tasUsage = new TreeMap<>();
            leaves.put(id, leaf);
        }
        Requests.add(leaf.freeCapacity, node.allocatable());
        return id;
    }

    private void link(Domain dom) {
        if (dom.levelValues.size() == 1) {
            roots.put(dom.id, dom);
            return;
        }
        List<String> parentValues = dom.levelValues.subList(0, dom.levelValues.size() - 1);
        String parentId = Domain.idOf(parentValues);
        Map<String, Domain> level = domainsPerLevel.get(parentValues.size() - 1);
        Domain parent = level.get(parentId);
        if (parent == null) {
            parent = new Domain(parentId, parentValues);
            level.put(parentId, parent);
            link(parent);
        }
        dom.parent = parent;
        parent.children.add(dom);
    }

    public Topology topology() {
        return topology;
    }

    /** The nodes (leaf ids) the snapshot holds. */
    public List<String> leafIds() {
        return List.copyOf(leaves.keySet());
    }

    /** Subtracts the usage of a non-TAS pod (DaemonSets, static pods...) from its node; unknown nodes are ignored. */
    public void addNonTasUsage(String nodeName, Map<String, Long> usage) {
        String leafId = nodeToLeaf.get(nodeName);
        if (leafId != null) {
            Requests.sub(leaves.get(leafId).freeCapacity, usage);
        }
    }

    /** One running non-TAS pod of these requests on the node (its usage counts one pod, as Kueue's non-TAS pod cache). */
    public void addNonTasPod(String nodeName, Map<String, Long> podRequests) {
        addNonTasUsage(nodeName, Requests.withOnePod(podRequests));
    }

    /**
     * Books a workload's TAS usage within this snapshot (a workload assumed admitted in the cycle, as Kueue's
     * snapshot addUsage): per domain the requests times the count, plus the pods. Booking a key again replaces its
     * usage; domains the snapshot does not hold (a node gone or not Ready) are skipped, as Kueue does. Across cycles
     * the book is {@link TasFlavorCache}.
     */
    public void addWorkload(String workloadKey, List<TasUsage> usage) {
        if (workloadUsage.containsKey(workloadKey)) {
            removeWorkload(workloadKey);
        }
        workloadUsage.put(workloadKey, List.copyOf(usage));
        update(usage, true);
    }

    /** Gives back what {@link #addWorkload} booked; a key not booked is ignored. */
    public void removeWorkload(String workloadKey) {
        List<TasUsage> usage = workloadUsage.remove(workloadKey);
        if (usage != null) {
            update(usage, false);
        }
    }

    public boolean holdsWorkload(String workloadKey) {
        return workloadUsage.containsKey(workloadKey);
    }

    private void update(List<TasUsage> usage, boolean add) {
        for (TasUsage u : usage) {
            for (TopologyDomainAssignment d : u.assignment().domains()) {
                Domain leaf = leaves.get(Domain.idOf(d.values()));
                if (leaf == null) {
                    continue;
                }
                Map<String, Long> domainUsage = Requests.usageOf(u.singlePodRequests(), d.count());
                if (add) {
                    Requests.add(leaf.tasUsage, domainUsage);
                } else {
                    Requests.sub(leaf.tasUsage, domainUsage);
                }
            }
        }
    }

    /** Kueue's addTASUsageForHeldDomains: usage per domain id, on the leaves held (others are skipped). */
    void addTasUsage(Map<String, ? extends Map<String, Long>> usagePerDomain) {
        usagePerDomain.forEach((id, u) -> {
            Domain leaf = leaves.get(id);
            if (leaf != null) {
                Requests.add(leaf.tasUsage, u);
            }
        });
    }

    /** Free capacity minus TAS usage of a leaf (a copy). */
    public Map<String, Long> remainingCapacity(String leafId) {
        Domain leaf = leaves.get(leafId);
        if (leaf == null) {
            return Map.of();
        }
        return remaining(leaf, false);
    }

    /** Allocatable minus non-TAS usage of a leaf (a copy). */
    public Map<String, Long> freeCapacity(String leafId) {
        Domain leaf = leaves.get(leafId);
        return leaf == null ? Map.of() : new TreeMap<>(leaf.freeCapacity);
    }

    TreeMap<String, Long> remaining(Domain leaf, boolean simulateEmpty) {
        TreeMap<String, Long> r = new TreeMap<>(leaf.freeCapacity);
        if (!simulateEmpty) {
            Requests.sub(r, leaf.tasUsage);
        }
        return r;
    }

    /**
     * Kueue's Fits: whether every domain of the usage still has room for its pods (a domain not held does not fit).
     */
    public boolean fits(List<TasUsage> usage) {
        for (TasUsage u : usage) {
            for (TopologyDomainAssignment d : u.assignment().domains()) {
                Domain leaf = leaves.get(Domain.idOf(d.values()));
                if (leaf == null || Requests.countIn(Requests.withOnePod(u.singlePodRequests()), remaining(leaf, false))
                        < d.count()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Kueue's HasLevel: the request names a level (main and slice levels, every slice layer) this topology has. */
    public boolean hasLevel(PodSetTopologyRequest request) {
        String mainKey = levelKey(request);
        if (mainKey == null) {
            return false;
        }
        String sliceKey = sliceLevelKeyWithDefault(request, topology.lowestLevel());
        if (!levelKeys.contains(mainKey) || !levelKeys.contains(sliceKey)) {
            return false;
        }
        if (request != null) {
            for (SliceConstraint c : request.sliceConstraints()) {
                if (!levelKeys.contains(c.topology())) {
                    return false;
                }
            }
        }
        return true;
    }

    String levelKey(PodSetTopologyRequest r) {
        if (r == null) {
            return null;
        }
        if (r.required() != null) {
            return r.required();
        }
        if (r.preferred() != null) {
            return r.preferred();
        }
        if (r.isSliceTopologyOnly()) {
            return topology.highestLevel();
        }
        if (Boolean.TRUE.equals(r.unconstrained())) {
            return topology.lowestLevel();
        }
        return null;
    }

    static String sliceLevelKeyWithDefault(PodSetTopologyRequest r, String defaultKey) {
        if (r != null && !r.sliceConstraints().isEmpty()) {
            return r.sliceConstraints().get(0).topology();
        }
        return defaultKey;
    }

    /**
     * Kueue's FindTopologyAssignmentsForFlavor: places the pod sets in order, a group (same podSetGroupName) at once,
     * each later pod set seeing the earlier ones' usage; stops at the first that does not fit. The result has an
     * entry per pod set tried, in order. simulateEmpty places as if no TAS workload were admitted (for preemption).
     */
    public Map<String, PlacementResult> findTopologyAssignments(List<TasPodSetRequest> requests, boolean simulateEmpty) {
        Map<String, PlacementResult> result = new LinkedHashMap<>();
        Map<String, TreeMap<String, Long>> assumedUsage = new HashMap<>();
        Map<String, List<TasPodSetRequest>> groups = new LinkedHashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            TasPodSetRequest r = requests.get(i);
            // Kueue keys ungrouped pod sets by their index; a group name cannot collide with it in practice
            String key = r.groupName() != null ? "g:" + r.groupName() : "i:" + i;
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        for (List<TasPodSetRequest> group : groups.values()) {
            TasPodSetRequest workers = group.get(0);
            TasPodSetRequest leader = null;
            if (group.size() > 1) {
                leader = group.get(1);
                if (leader.count() > workers.count()) {
                    leader = group.get(0);
                    workers = group.get(1);
                }
            }
            Placement placement = new Placement(this, workers, leader, assumedUsage, simulateEmpty);
            Map<String, TopologyAssignment> assignments = placement.run();
            String reason = placement.failureReason();
            for (TasPodSetRequest r : group) {
                result.put(r.podSetName(), new PlacementResult(reason == null ? assignments.get(r.podSetName()) : null,
                        reason == null ? "" : reason));
            }
            if (reason != null) {
                return result;
            }
            for (TasPodSetRequest r : group) {
                TopologyAssignment a = assignments.get(r.podSetName());
                if (a == null) {
                    continue;
                }
                for (TopologyDomainAssignment d : a.domains()) {
                    Requests.add(assumedUsage.computeIfAbsent(Domain.idOf(d.values()), k -> new TreeMap<>()),
                            Requests.usageOf(r.singlePodRequests(), d.count()));
                }
            }
        }
        return result;
    }

    /** An independent copy: same nodes, capacity and booked workloads. */
    public TasFlavorSnapshot copy() {
        return new TasFlavorSnapshot(this);
    }

    private TasFlavorSnapshot(TasFlavorSnapshot o) {
        this.topology = o.topology;
        this.levelKeys = o.levelKeys;
        this.isLowestLevelNode = o.isLowestLevelNode;
        this.flavorTolerations = o.flavorTolerations;
        for (int i = 0; i < levelKeys.size(); i++) {
            domainsPerLevel.add(new LinkedHashMap<>());
        }
        for (Domain l : o.leaves.values()) {
            Domain leaf = new Domain(l.id, l.levelValues);
            leaf.node = l.node;
            leaf.freeCapacity = new TreeMap<>(l.freeCapacity);
            leaf.tasUsage = new TreeMap<>(l.tasUsage);
            leaves.put(leaf.id, leaf);
        }
        nodeToLeaf.putAll(o.nodeToLeaf);
        o.workloadUsage.forEach(workloadUsage::put);
        for (Domain leaf : leaves.values()) {
            domainsPerLevel.get(leaf.levelValues.size() - 1).put(leaf.id, leaf);
            link(leaf);
        }
    }
}
