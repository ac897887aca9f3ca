package dev.sluice.engine;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A ResourceFlavor: the node labels and taints of the nodes it stands for, tolerations it adds to pods, and the
 * Topology it places pods on (spec.topologyName; null: no topology-aware scheduling).
 */
public record FlavorSpec(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations,
                         String topologyName) {
    /** A flavor without topology. */
    public FlavorSpec(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations) {
        this(name, nodeLabels, nodeTaints, tolerations, null);
    }

    public FlavorSpec {
        Objects.requireNonNull(name, "flavor name");
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        nodeTaints = nodeTaints == null ? List.of() : List.copyOf(nodeTaints);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }
}
