package dev.sluice.engine;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector; an empty selector matches everything. */
public record LabelSelector(Map<String, String> matchLabels, List<LabelSelectorRequirement> matchExpressions) {
    public LabelSelector {
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }

    /** The selector {} that selects all. */
    public static LabelSelector everything() {
        return new LabelSelector(Map.of(), List.of());
    }

    public boolean matches(Map<String, String> labels) {
        if (matchLabels.isEmpty() && matchExpressions.isEmpty()) {
            return true; // selects everything (checked first: it is the common case and called per head)
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(l.get(e.getKey()))) {
                return false;
            }
        }
        for (LabelSelectorRequirement r : matchExpressions) {
            if (!r.matches(l)) {
                return false;
            }
        }
        return true;
    }
}
