package dev.sluice.engine.tas;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue v0.19's search for a replacement of a failed node (pkg/cache/scheduler/tas_flavor_snapshot.go,
 * findReplacementAssignment with TASFailedNodeReplacement on): the pods the assignment put on the node are placed
 * again, as a pod set of their own, within the domain the request requires (the lowest domain of the required level
 * that holds the assignment's other pods, or for sliced pod sets the slice domain left incomplete), on the nodes as
 * the snapshot has them (the failed node is no longer in it); the result is the assignment without the node plus the
 * replacement, merged per node. Pure.
 */
public final class NodeReplacement {

    private NodeReplacement() {
    }

    /**
     * The new assignment and the part that replaces the node, or why there is none (Kueue's reasons). {@code
     * assignment} and {@code replacement} are null when it failed.
     */
    public record Result(TopologyAssignment assignment, TopologyAssignment replacement, String failureReason) {
        public boolean found() {
            return failureReason == null;
        }

        static Result failed(String reason) {
            return new Result(null, null, reason);
        }
    }

    /**
     * @param request the pod set as placed at admission (its count is replaced by the failed node's pods)
     * @param existing the pod set's recorded assignment
     * @param unhealthyNode the Workload's first unhealthy node (Kueue replaces one node at a time)
     */
    public static Result find(TasFlavorSnapshot s, TasPodSetRequest request, TopologyAssignment existing,
            String unhealthyNode) {
        List<TopologyDomainAssignment> kept = new ArrayList<>();
        int affected = 0;
        for (TopologyDomainAssignment d : existing.domains()) {
            if (d.values().get(d.values().size() - 1).equals(unhealthyNode)) {
                affected = d.count();
            } else {
                kept.add(d);
            }
        }
        TopologyAssignment remaining = new TopologyAssignment(existing.levels(), kept);
        for (TopologyDomainAssignment d : kept) {
            if (!s.leaves.containsKey(Domain.idOf(d.values()))) {
                return Result.failed("Cannot replace the node, because the existing topologyAssignment is invalid, as it "
                        + "contains the stale domain " + d.values().get(0));
            }
        }
        TasPodSetRequest tr = withCount(request, affected);
        String requiredDomain = requiredReplacementDomain(s, tr, remaining);
        PodSetTopologyRequest req = tr.topologyRequest();
        List<SliceConstraint> constraints = req == null ? List.of() : req.sliceConstraints();
        int sliceSize = 1;
        if (!constraints.isEmpty()) {
            sliceSize = constraints.get(0).size();
            if (sliceSize <= 0) {
                return Result.failed("slice topology requested, but slice size not provided");
            }
        }
        TasPodSetRequest placed = tr;
        if (!constraints.isEmpty() && requiredDomain != null && affected % sliceSize != 0) {
            // the innermost layer whose size divides the pods to place keeps their grouping at the leaves
            int effectiveSize = 1;
            String effectiveTopology = null;
            for (int i = constraints.size() - 1; i >= 0; i--) {
                if (affected % constraints.get(i).size() == 0) {
                    effectiveSize = constraints.get(i).size();
                    effectiveTopology = constraints.get(i).topology();
                    break;
                }
            }
            PodSetTopologyRequest single = new PodSetTopologyRequest(req.required(), req.preferred(), req.unconstrained(),
                    req.podIndexLabel(), req.subGroupIndexLabel(), req.subGroupCount(), req.podSetGroupName(),
                    effectiveTopology, effectiveSize, List.of());
            placed = new TasPodSetRequest(tr.podSetName(), tr.count(), tr.singlePodRequests(), single, tr.nodeSelector(),
                    tr.requiredNodeAffinity(), tr.tolerations());
        }
        Placement placement = new Placement(s, placed, null, new HashMap<>(), false, requiredDomain);
        Map<String, TopologyAssignment> assignments = placement.run();
        if (placement.failureReason() != null) {
            return Result.failed(placement.failureReason());
        }
        TopologyAssignment replacement = assignments.get(tr.podSetName());
        if (replacement == null || replacement.domains().isEmpty()) {
            return Result.failed("cannot find replacement assignment for unhealthy node: " + unhealthyNode);
        }
        return new Result(merge(s, replacement, remaining), replacement, null);
    }

    private static TasPodSetRequest withCount(TasPodSetRequest r, int count) {
        return new TasPodSetRequest(r.podSetName(), count, r.singlePodRequests(), r.topologyRequest(), r.nodeSelector(),
                r.requiredNodeAffinity(), r.tolerations());
    }

    /** Kueue's requiredReplacementDomain: the id of the domain the replacement must stay in, or null for none. */
    static String requiredReplacementDomain(TasFlavorSnapshot s, TasPodSetRequest tr, TopologyAssignment ta) {
        PodSetTopologyRequest req = tr.topologyRequest();
        String key = s.levelKey(req);
        if (key == null && tr.implied()) {
            key = s.topology.lowestLevel();
        }
        if (key == null) {
            return null;
        }
        int levelIdx = s.levelKeys.indexOf(key);
        if (levelIdx < 0 || ta.domains().isEmpty()) {
            return null; // the failed node held all the pods: nothing to stay near
        }
        List<SliceConstraint> constraints = req == null ? List.of() : req.sliceConstraints();
        int sliceSize = constraints.isEmpty() ? 1 : constraints.get(0).size();
        if (sliceSize <= 0) {
            return null;
        }
        if (!constraints.isEmpty() && tr.count() % sliceSize != 0) {
            // with several layers the innermost broken one confines the replacement
            if (constraints.size() > 1) {
                for (int i = constraints.size() - 1; i >= 0; i--) {
                    if (tr.count() % constraints.get(i).size() != 0) {
                        return incompleteSliceDomain(s, ta, tr.count(), constraints.get(i).size(),
                                constraints.get(i).topology());
                    }
                }
            }
            return incompleteSliceDomain(s, ta, tr.count(), sliceSize,
                    TasFlavorSnapshot.sliceLevelKeyWithDefault(req, s.topology.lowestLevel()));
        }
        if (req == null || !req.isRequired()) {
            return null;
        }
        int nodeLevel = s.levelKeys.size() - 1;
        List<String> values = ta.domains().get(0).values();
        if (values.isEmpty()) {
            return null;
        }
        Domain domain = s.domainsPerLevel.get(nodeLevel).get(Domain.idOf(values));
        if (domain == null) {
            return null;
        }
        for (int i = nodeLevel; i > levelIdx; i--) {
            domain = domain.parent;
        }
        return domain.id;
    }

    /** Kueue's findIncompleteSliceDomain: the slice-level domain whose pods the missing ones complete to whole slices. */
    private static String incompleteSliceDomain(TasFlavorSnapshot s, TopologyAssignment ta, int missing, int sliceSize,
            String topologyKey) {
        int sliceLevelIdx = s.levelKeys.indexOf(topologyKey);
        if (sliceLevelIdx < 0) {
            return null;
        }
        int nodeLevel = s.levelKeys.size() - 1;
        Map<String, Integer> usage = new LinkedHashMap<>();
        for (TopologyDomainAssignment d : ta.domains()) {
            Domain domain = s.domainsPerLevel.get(nodeLevel).get(Domain.idOf(d.values()));
            if (domain == null) {
                continue;
            }
            for (int i = nodeLevel; i > sliceLevelIdx; i--) {
                domain = domain.parent;
            }
            usage.merge(domain.id, d.count(), Integer::sum);
        }
        for (Map.Entry<String, Integer> e : usage.entrySet()) {
            if ((e.getValue() + missing) % sliceSize == 0) {
                return e.getKey();
            }
        }
        return null;
    }

    /** Kueue's mergeTopologyAssignments: both, ordered by the nodes' full paths, one entry per node. */
    static TopologyAssignment merge(TasFlavorSnapshot s, TopologyAssignment a, TopologyAssignment b) {
        int nodeLevel = s.levelKeys.size() - 1;
        List<TopologyDomainAssignment> all = new ArrayList<>(a.domains());
        all.addAll(b.domains());
        Map<String, Domain> leaves = s.domainsPerLevel.get(nodeLevel);
        all.sort(Comparator.comparing(d -> {
            Domain leaf = leaves.get(Domain.idOf(d.values()));
            return leaf == null ? Domain.idOf(d.values()) : Domain.idOf(leaf.levelValues);
        }));
        List<TopologyDomainAssignment> merged = new ArrayList<>();
        for (TopologyDomainAssignment d : all) {
            TopologyDomainAssignment last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last.values().equals(d.values())) {
                merged.set(merged.size() - 1, new TopologyDomainAssignment(last.values(), last.count() + d.count()));
            } else {
                merged.add(d);
            }
        }
        return new TopologyAssignment(a.levels(), merged);
    }
}
