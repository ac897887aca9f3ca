package dev.sluice.engine;

import dev.sluice.engine.tas.PodSetTopologyRequest;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A pod set: count pods, each requesting requestsPerPod (milli-units). minCount (null = none) allows
 * partial admission down to that many pods. topologyRequest (null: none) is Kueue's PodSetTopologyRequest for
 * topology-aware scheduling.
 */
public record PodSetSpec(String name, int count, Integer minCount, Map<String, Long> requestsPerPod,
                         Map<String, String> nodeSelector, List<NodeSelectorTerm> requiredNodeAffinity,
                         List<Toleration> tolerations, PodSetTopologyRequest topologyRequest) {
    /** A pod set without topology request. */
    public PodSetSpec(String name, int count, Integer minCount, Map<String, Long> requestsPerPod,
                      Map<String, String> nodeSelector, List<NodeSelectorTerm> requiredNodeAffinity,
                      List<Toleration> tolerations) {
        this(name, count, minCount, requestsPerPod, nodeSelector, requiredNodeAffinity, tolerations, null);
    }

    public PodSetSpec {
        Objects.requireNonNull(name, "pod set name");
        if (count < 0) {
            throw new IllegalArgumentException("pod set " + name + ": count must not be negative");
        }
        if (minCount != null && (minCount < 0 || minCount > count)) {
            throw new IllegalArgumentException("pod set " + name + ": minCount " + minCount
                    + " must be between 0 and count " + count);
        }
        requestsPerPod = requestsPerPod == null ? Map.of() : Map.copyOf(requestsPerPod);
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        requiredNodeAffinity = requiredNodeAffinity == null ? List.of() : List.copyOf(requiredNodeAffinity);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    /** A plain pod set with only requests. */
    public static PodSetSpec of(String name, int count, Map<String, Long> requestsPerPod) {
        return new PodSetSpec(name, count, null, requestsPerPod, Map.of(), List.of(), List.of());
    }
}
