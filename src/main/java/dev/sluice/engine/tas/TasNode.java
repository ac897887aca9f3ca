package dev.sluice.engine.tas;

import dev.sluice.engine.Taint;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A node as TAS sees it: its labels (which carry its domain value at each topology level), its allocatable
 * capacity (milli-units, as the rest of the engine; {@code pods} counts 1000 per pod), its taints, and whether it is
 * Ready and schedulable (Kueue's nodes cache keeps only nodes that are both).
 */
public record TasNode(String name, Map<String, String> labels, Map<String, Long> allocatable, List<Taint> taints,
                      boolean ready, boolean unschedulable) {
    public TasNode {
        Objects.requireNonNull(name, "node name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** Kueue's nodesCache.sync: a node not Ready or marked unschedulable is dropped from TAS. */
    public boolean schedulableAndReady() {
        return ready && !unschedulable;
    }
}
