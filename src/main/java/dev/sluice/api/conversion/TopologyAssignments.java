package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A topology assignment: v1beta1 lists every domain (values per level, pod count); v1beta2 writes runs of domains
 * as slices whose values per level are one value for all ("universal") or prefix + root + suffix per domain
 * ("individual"), and likewise pod counts. Going up without an earlier v1beta2 form, all domains become one slice
 * of individual values; a form an earlier conversion kept is used again while it still lists the same domains.
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
        ObjectNode slice = Tree.NODES.objectNode();
        slice.put("domainCount", domains.size());
        ArrayNode valuesPerLevel = slice.putArray("valuesPerLevel");
        for (int level = 0; level < levelCount; level++) {
            ArrayNode roots = valuesPerLevel.addObject().putObject("individual").putArray("roots");
            for (int d = 0; d < domains.size(); d++) {
                JsonNode value = domains.get(d).path("values").path(level);
                if (!value.isTextual() || domains.get(d).path("values").size() != levelCount) {
                    throw new ConversionException(where + ".domains[" + d + "].values: must hold one value per level ("
                            + levelCount + ")");
                }
                roots.add(value);
            }
        }
        ArrayNode counts = slice.putObject("podCounts").putArray("individual");
        for (int d = 0; d < domains.size(); d++) {
            JsonNode count = domains.get(d).path("count");
            if (!count.isIntegralNumber()) {
                throw new ConversionException(where + ".domains[" + d + "].count: must be a number of pods");
            }
            counts.add(count);
        }
        topology.remove("domains");
        ArrayNode slices = topology.putArray("slices");
        if (!domains.isEmpty()) {
            slices.add(slice);
        }
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
