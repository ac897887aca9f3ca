package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyAssignmentEncoding;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import dev.sluice.engine.tas.WireTopologyAssignment;
import java.util.ArrayList;
import java.util.List;

/**
 * A topology assignment: v1beta1 lists every domain (values per level, pod count); v1beta2 writes runs of domains
 * as slices whose values per level are one value for all ("universal") or prefix + root + suffix per domain
 * ("individual"), and likewise pod counts. Going up without an earlier v1beta2 form, the domains are encoded as
 * Kueue v0.19.2's conversion does (tas.V1Beta2From, {@link TopologyAssignmentEncoding#toWire}); a form an earlier
 * conversion kept is used again while it still lists the same domains.
 */
final class TopologyAssignments {

    private TopologyAssignments() {
    }

    static void up(ObjectNode topology, JsonNode earlier, String where) throws ConversionException {
        JsonNode levels = topology.get("levels");
        ArrayNode domains = topology.get("domains") instanceof ArrayNode a ? a : null;
        if (domains == null) {
            throw new ConversionException(where + ".domains: must be a list of {values, count}");
        }
        if (earlier instanceof ObjectNode kept && kept.has("slices")) {
            ObjectNode expanded = kept.deepCopy();
            try {
                down(expanded, where);
                if (expanded.path("domains").equals(domains) && expanded.path("levels").equals(topology.path("levels"))) {
                    topology.removeAll();
                    topology.setAll(kept);
                    return;
                }
            } catch (ConversionException stale) {
                // an unusable earlier form is simply not used
            }
        }
        int levelCount = levels instanceof ArrayNode l ? l.size() : 0;
        List<String> levelNames = new ArrayList<>();
        for (int level = 0; level < levelCount; level++) {
            if (!levels.get(level).isTextual()) {
                throw new ConversionException(where + ".levels[" + level + "]: must be a node label");
            }
            levelNames.add(levels.get(level).asText());
        }
        List<TopologyDomainAssignment> internal = new ArrayList<>();
        for (int d = 0; d < domains.size(); d++) {
            JsonNode values = domains.get(d).path("values");
            if (!(values instanceof ArrayNode) || values.size() != levelCount) {
                throw new ConversionException(where + ".domains[" + d + "].values: must hold one value per level ("
                        + levelCount + ")");
            }
            List<String> domainValues = new ArrayList<>();
            for (int level = 0; level < levelCount; level++) {
                if (!values.get(level).isTextual()) {
                    throw new ConversionException(where + ".domains[" + d + "].values: must hold one value per level ("
                            + levelCount + ")");
                }
                domainValues.add(values.get(level).asText());
            }
            JsonNode count = domains.get(d).path("count");
            if (!count.isIntegralNumber()) {
                throw new ConversionException(where + ".domains[" + d + "].count: must be a number of pods");
            }
            internal.add(new TopologyDomainAssignment(domainValues, count.asInt()));
        }
        WireTopologyAssignment wire = TopologyAssignmentEncoding.toWire(new TopologyAssignment(levelNames, internal));
        topology.remove("domains");
        ArrayNode slices = topology.putArray("slices");
        for (WireTopologyAssignment.Slice s : wire.slices()) {
            slices.add(slice(s));
        }
    }

    /** One v1beta2 slice as Kueue serializes it (prefix and suffix only when set). */
    private static ObjectNode slice(WireTopologyAssignment.Slice s) {
        ObjectNode slice = Tree.NODES.objectNode();
        slice.put("domainCount", s.domainCount());
        ArrayNode valuesPerLevel = slice.putArray("valuesPerLevel");
        for (WireTopologyAssignment.LevelValues v : s.valuesPerLevel()) {
            ObjectNode out = valuesPerLevel.addObject();
            if (v.universal() != null) {
                out.put("universal", v.universal());
            } else {
                ObjectNode individual = out.putObject("individual");
                if (v.individual().prefix() != null) {
                    individual.put("prefix", v.individual().prefix());
                }
                if (v.individual().suffix() != null) {
                    individual.put("suffix", v.individual().suffix());
                }
                ArrayNode roots = individual.putArray("roots");
                v.individual().roots().forEach(roots::add);
            }
        }
        ObjectNode counts = slice.putObject("podCounts");
        if (s.podCounts().universal() != null) {
            counts.put("universal", s.podCounts().universal());
        } else {
            ArrayNode individual = counts.putArray("individual");
            s.podCounts().individual().forEach(individual::add);
        }
        return slice;
    }

    static void down(ObjectNode topology, String where) throws ConversionException {
        int levelCount = topology.get("levels") instanceof ArrayNode l ? l.size() : 0;
        ArrayNode slices = topology.get("slices") instanceof ArrayNode a ? a : null;
        if (slices == null) {
            throw new ConversionException(where + ".slices: must be a list of slices");
        }
        ArrayNode domains = Tree.NODES.arrayNode();
        for (int s = 0; s < slices.size(); s++) {
            JsonNode slice = slices.get(s);
            String at = where + ".slices[" + s + "]";
            int count = slice.path("domainCount").asInt(-1);
            if (count < 0 || !slice.path("domainCount").isIntegralNumber()) {
                throw new ConversionException(at + ".domainCount: must be a number of domains");
            }
            JsonNode valuesPerLevel = slice.path("valuesPerLevel");
            if (!valuesPerLevel.isArray() || valuesPerLevel.size() != levelCount) {
                throw new ConversionException(at + ".valuesPerLevel: must hold one entry per level (" + levelCount + ")");
            }
            for (int d = 0; d < count; d++) {
                ObjectNode domain = domains.addObject();
                ArrayNode values = domain.putArray("values");
                for (int level = 0; level < levelCount; level++) {
                    values.add(value(valuesPerLevel.get(level), d, at + ".valuesPerLevel[" + level + "]"));
                }
                domain.set("count", podCount(slice.path("podCounts"), d, at + ".podCounts"));
            }
        }
        topology.remove("slices");
        topology.set("domains", domains);
    }

    private static JsonNode value(JsonNode level, int d, String at) throws ConversionException {
        if (level == null || !level.isObject()) {
            throw new ConversionException(at + ": must be an object with universal or individual");
        }
        if (level.path("universal").isTextual()) {
            return level.get("universal");
        }
        JsonNode individual = level.path("individual");
        JsonNode root = individual.path("roots").path(d);
        if (!root.isTextual()) {
            throw new ConversionException(at + ": needs universal, or individual.roots with one root per domain");
        }
        return Tree.NODES.textNode(individual.path("prefix").asText("") + root.asText() + individual.path("suffix").asText(""));
    }

    private static JsonNode podCount(JsonNode counts, int d, String at) throws ConversionException {
        if (counts.path("universal").isIntegralNumber()) {
            return counts.get("universal");
        }
        JsonNode count = counts.path("individual").path(d);
        if (!count.isIntegralNumber()) {
            throw new ConversionException(at + ": needs universal, or individual with one count per domain");
        }
        return count;
    }
}
