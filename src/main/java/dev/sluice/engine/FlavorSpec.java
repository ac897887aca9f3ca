package dev.sluice.engine;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A ResourceFlavor: the node labels and taints of the nodes it stands for, and tolerations it adds to pods. */
public record FlavorSpec(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations) {
    public FlavorSpec {
        Objects.requireNonNull(name, "flavor name");
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        nodeTaints = nodeTaints == null ? List.of() : List.copyOf(nodeTaints);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }
}
