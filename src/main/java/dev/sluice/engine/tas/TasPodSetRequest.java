package dev.sluice.engine.tas;

import dev.sluice.engine.NodeSelectorTerm;
import dev.sluice.engine.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What TAS places for one pod set on one flavor (Kueue's TASPodSetRequests): count pods of singlePodRequests each
 * (milli-units), the topology request (null: implied, Kueue's "no annotation" default of unconstrained on the lowest
 * level), and the pod template's node selector, required node affinity and tolerations. Pod sets of the same
 * {@code podSetGroupName} (from the topology request) are placed together: the one with the smaller count is the
 * leader.
 */
public record TasPodSetRequest(String podSetName, int count, Map<String, Long> singlePodRequests,
                               PodSetTopologyRequest topologyRequest, Map<String, String> nodeSelector,
                               List<NodeSelectorTerm> requiredNodeAffinity, List<Toleration> tolerations) {
    public TasPodSetRequest {
        Objects.requireNonNull(podSetName, "pod set name");
        singlePodRequests = singlePodRequests == null ? Map.of() : Map.copyOf(singlePodRequests);
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        requiredNodeAffinity = requiredNodeAffinity == null ? List.of() : List.copyOf(requiredNodeAffinity);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    public static TasPodSetRequest of(String podSetName, int count, Map<String, Long> singlePodRequests,
                                      PodSetTopologyRequest topologyRequest) {
        return new TasPodSetRequest(podSetName, count, singlePodRequests, topologyRequest, Map.of(), List.of(), List.of());
    }

    public boolean implied() {
        return topologyRequest == null;
    }

    String groupName() {
        return topologyRequest == null ? null : topologyRequest.podSetGroupName();
    }
}
