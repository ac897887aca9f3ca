package dev.sluice.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a flavor's node labels agree with a pod set's node selector and required node affinity. Like Kueue,
 * only label keys that some flavor of the resource group defines are considered: other keys (hostname,
 * zone...) are for the kube-scheduler, not for quota.
 */
final class NodeAffinity {
    private NodeAffinity() {
    }

    static boolean matches(PodSetSpec ps, Map<String, String> nodeLabels, Set<String> labelKeys) {
        for (Map.Entry<String, String> e : ps.nodeSelector().entrySet()) {
            if (labelKeys.contains(e.getKey()) && !e.getValue().equals(nodeLabels.get(e.getKey()))) {
                return false;
            }
        }
        List<NodeSelectorTerm> terms = ps.requiredNodeAffinity();
        if (terms.isEmpty()) {
            return true;
        }
        Map<String, String> labels = new HashMap<>(nodeLabels);
        for (NodeSelectorTerm term : terms) {
            boolean anyConsidered = false;
            boolean all = true;
            for (NodeSelectorRequirement r : term.matchExpressions()) {
                if (!labelKeys.contains(r.key())) {
                    continue;
                }
                anyConsidered = true;
                all &= r.matches(labels);
            }
            // Terms are OR-ed: a term with nothing about flavor labels lets every flavor through.
            if (!anyConsidered || all) {
                return true;
            }
        }
        return false;
    }
}
