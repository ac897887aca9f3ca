package dev.sluice.bridge;

import dev.sluice.api.v1beta2.PodsetSliceRequiredTopologyConstraint;
import dev.sluice.api.v1beta2.Topology;
import dev.sluice.api.v1beta2.TopologyAssignmentSlice;
import dev.sluice.api.v1beta2.TopologyAssignmentSliceLevelIndividualValues;
import dev.sluice.api.v1beta2.TopologyAssignmentSliceLevelValues;
import dev.sluice.api.v1beta2.TopologyAssignmentSlicePodCounts;
import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.engine.tas.SliceConstraint;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyAssignmentEncoding;
import dev.sluice.engine.tas.WireTopologyAssignment;
import java.util.ArrayList;
import java.util.List;

/**
 * Topology-aware scheduling's objects between the API and the engine: a Topology's levels, a pod set's
 * topologyRequest, and a pod set assignment's topologyAssignment in v1beta2's compact slices (both ways).
 */
public final class Topologies {

    private Topologies() {
    }

    /**
     * @throws InvalidObjectException no levels, or a level without a node label (the webhook refuses those; an
     *         object stored before it ran is reported, not guessed)
     */
    public static dev.sluice.engine.tas.Topology toEngine(Topology topology) {
        String name = topology.getMetadata().getName();
        var spec = topology.getSpec();
        if (spec == null || spec.getLevels() == null || spec.getLevels().isEmpty()) {
            throw new InvalidObjectException("Topology " + name, "spec.levels", "at least one level is required");
        }
        List<String> levels = new ArrayList<>();
        for (int i = 0; i < spec.getLevels().size(); i++) {
            String label = spec.getLevels().get(i).getNodeLabel();
            if (label == null || label.isEmpty()) {
                throw new InvalidObjectException("Topology " + name, "spec.levels[" + i + "].nodeLabel",
                        "required; name the node label of this level, e.g. cloud.google.com/gce-topology-block");
            }
            levels.add(label);
        }
        return new dev.sluice.engine.tas.Topology(name, levels);
    }

    /** A Workload pod set's topologyRequest as the engine reads it; null stays null. */
    public static PodSetTopologyRequest request(dev.sluice.api.v1beta2.PodSetTopologyRequest r) {
        if (r == null) {
            return null;
        }
        List<SliceConstraint> layers = new ArrayList<>();
        if (r.getPodsetSliceRequiredTopologyConstraints() != null) {
            for (PodsetSliceRequiredTopologyConstraint c : r.getPodsetSliceRequiredTopologyConstraints()) {
                if (c.getTopology() != null) {
                    layers.add(new SliceConstraint(c.getTopology(), c.getSize() == null ? 0 : c.getSize()));
                }
            }
        }
        return new PodSetTopologyRequest(r.getRequired(), r.getPreferred(), r.getUnconstrained(), r.getPodIndexLabel(),
                r.getSubGroupIndexLabel(), r.getSubGroupCount(), r.getPodSetGroupName(),
                r.getPodSetSliceRequiredTopology(), r.getPodSetSliceSize(), layers);
    }

    /** The engine's assignment in v1beta2's wire form (Kueue's V1Beta2From); null stays null. */
    public static dev.sluice.api.v1beta2.TopologyAssignment toApi(TopologyAssignment assignment) {
        WireTopologyAssignment wire = TopologyAssignmentEncoding.toWire(assignment);
        if (wire == null) {
            return null;
        }
        var out = new dev.sluice.api.v1beta2.TopologyAssignment();
        out.setLevels(new ArrayList<>(wire.levels()));
        List<TopologyAssignmentSlice> slices = new ArrayList<>();
        for (WireTopologyAssignment.Slice s : wire.slices()) {
            var slice = new TopologyAssignmentSlice();
            slice.setDomainCount(s.domainCount());
            List<TopologyAssignmentSliceLevelValues> values = new ArrayList<>();
            for (WireTopologyAssignment.LevelValues lv : s.valuesPerLevel()) {
                var v = new TopologyAssignmentSliceLevelValues();
                v.setUniversal(lv.universal());
                if (lv.individual() != null) {
                    var individual = new TopologyAssignmentSliceLevelIndividualValues();
                    individual.setPrefix(lv.individual().prefix());
                    individual.setSuffix(lv.individual().suffix());
                    individual.setRoots(new ArrayList<>(lv.individual().roots()));
                    v.setIndividual(individual);
                }
                values.add(v);
            }
            slice.setValuesPerLevel(values);
            var counts = new TopologyAssignmentSlicePodCounts();
            counts.setUniversal(s.podCounts().universal());
            counts.setIndividual(s.podCounts().individual() == null ? null : new ArrayList<>(s.podCounts().individual()));
            slice.setPodCounts(counts);
            slices.add(slice);
        }
        out.setSlices(slices);
        return out;
    }

    /**
     * A recorded topologyAssignment as the engine's (Kueue's InternalFrom); null stays null.
     *
     * @throws InvalidObjectException a slice whose values or counts do not match its domainCount
     */
    public static TopologyAssignment fromApi(dev.sluice.api.v1beta2.TopologyAssignment recorded, String where,
                                             String path) {
        if (recorded == null) {
            return null;
        }
        List<String> levels = recorded.getLevels() == null ? List.of() : recorded.getLevels();
        List<WireTopologyAssignment.Slice> slices = new ArrayList<>();
        var apiSlices = recorded.getSlices() == null ? List.<TopologyAssignmentSlice> of() : recorded.getSlices();
        for (int i = 0; i < apiSlices.size(); i++) {
            TopologyAssignmentSlice s = apiSlices.get(i);
            String at = path + ".slices[" + i + "]";
            int domains = s.getDomainCount() == null ? 0 : s.getDomainCount();
            List<WireTopologyAssignment.LevelValues> values = new ArrayList<>();
            var apiValues = s.getValuesPerLevel() == null ? List.<TopologyAssignmentSliceLevelValues> of()
                    : s.getValuesPerLevel();
            if (apiValues.size() != levels.size()) {
                throw new InvalidObjectException(where, at + ".valuesPerLevel",
                        "has " + apiValues.size() + " entries for " + levels.size() + " levels");
            }
            for (int l = 0; l < apiValues.size(); l++) {
                var v = apiValues.get(l);
                WireTopologyAssignment.Individual individual = null;
                if (v.getIndividual() != null) {
                    var iv = v.getIndividual();
                    List<String> roots = iv.getRoots() == null ? List.of() : iv.getRoots();
                    if (roots.size() != domains) {
                        throw new InvalidObjectException(where, at + ".valuesPerLevel[" + l + "].individual.roots",
                                "has " + roots.size() + " values for domainCount " + domains);
                    }
                    individual = new WireTopologyAssignment.Individual(iv.getPrefix(), iv.getSuffix(), roots);
                } else if (v.getUniversal() == null) {
                    throw new InvalidObjectException(where, at + ".valuesPerLevel[" + l + "]",
                            "needs universal or individual values");
                }
                values.add(new WireTopologyAssignment.LevelValues(v.getUniversal(), individual));
            }
            var pc = s.getPodCounts();
            if (pc == null || (pc.getUniversal() == null && pc.getIndividual() == null)) {
                throw new InvalidObjectException(where, at + ".podCounts", "needs universal or individual counts");
            }
            if (pc.getUniversal() == null && pc.getIndividual().size() != domains) {
                throw new InvalidObjectException(where, at + ".podCounts.individual",
                        "has " + pc.getIndividual().size() + " counts for domainCount " + domains);
            }
            slices.add(new WireTopologyAssignment.Slice(domains, values,
                    new WireTopologyAssignment.PodCounts(pc.getUniversal(), pc.getIndividual())));
        }
        return TopologyAssignmentEncoding.fromWire(new WireTopologyAssignment(levels, slices));
    }
}
