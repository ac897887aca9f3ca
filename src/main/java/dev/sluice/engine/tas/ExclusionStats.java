package dev.sluice.engine.tas;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Why nodes were left out of a placement (Kueue's tasExclusionStats), for the not-fit message. */
final class ExclusionStats {
    int totalNodes;
    int nodeSelector;
    int affinity;
    int topologyDomain;
    final Map<String, Integer> taints = new TreeMap<>();
    final Map<String, Integer> resources = new TreeMap<>();

    boolean hasExclusions() {
        return nodeSelector > 0 || affinity > 0 || !taints.isEmpty() || topologyDomain > 0 || !resources.isEmpty();
    }

    void recordResource(String resource) {
        resources.merge(resource, 1, Integer::sum);
    }

    String formatReasons() {
        List<String> reasons = new ArrayList<>();
        if (nodeSelector > 0) {
            reasons.add("nodeSelector: " + nodeSelector);
        }
        if (affinity > 0) {
            reasons.add("affinity: " + affinity);
        }
        if (topologyDomain > 0) {
            reasons.add("topologyDomain: " + topologyDomain);
        }
        taints.forEach((t, n) -> reasons.add("taint " + GoQuote.quote(t) + ": " + n));
        resources.forEach((r, n) -> reasons.add("resource " + GoQuote.quote(r) + ": " + n));
        Collections.sort(reasons);
        return String.join(", ", reasons);
    }
}
