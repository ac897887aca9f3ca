package dev.sluice.engine;

import java.util.Map;

/** The flavor given to each resource of a pod set, the usage of the whole pod set (milli), and its admitted count. */
public record PodSetAssignment(String name, Map<String, String> flavors, Map<String, Long> resourceUsage, int count) {
    public PodSetAssignment {
        flavors = flavors == null ? Map.of() : Map.copyOf(flavors);
        resourceUsage = resourceUsage == null ? Map.of() : Map.copyOf(resourceUsage);
    }
}
