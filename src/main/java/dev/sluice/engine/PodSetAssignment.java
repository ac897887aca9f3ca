package dev.sluice.engine;

import dev.sluice.engine.tas.TopologyAssignment;
import java.util.Map;

/**
 * The flavor given to each resource of a pod set, the usage of the whole pod set (milli), its admitted count, and
 * where its pods go when its flavor has a topology (null otherwise; the v1beta2 wire form is
 * {@code TopologyAssignmentEncoding.toWire}).
 */
public record PodSetAssignment(String name, Map<String, String> flavors, Map<String, Long> resourceUsage, int count,
                               TopologyAssignment topologyAssignment) {
    /** An assignment without topology. */
    public PodSetAssignment(String name, Map<String, String> flavors, Map<String, Long> resourceUsage, int count) {
        this(name, flavors, resourceUsage, count, null);
    }

    public PodSetAssignment {
        flavors = flavors == null ? Map.of() : Map.copyOf(flavors);
        resourceUsage = resourceUsage == null ? Map.of() : Map.copyOf(resourceUsage);
    }

    PodSetAssignment withTopologyAssignment(TopologyAssignment ta) {
        return new PodSetAssignment(name, flavors, resourceUsage, count, ta);
    }
}
