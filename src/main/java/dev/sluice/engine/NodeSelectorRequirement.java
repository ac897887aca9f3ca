package dev.sluice.engine;

import java.util.List;
import java.util.Map;

/** A node affinity requirement: In, NotIn, Exists, DoesNotExist, Gt or Lt. */
public record NodeSelectorRequirement(String key, String operator, List<String> values) {
    public NodeSelectorRequirement {
        values = values == null ? List.of() : List.copyOf(values);
        if (!List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt").contains(operator)) {
            throw new IllegalArgumentException("node selector operator '" + operator + "' for key '" + key
                    + "' is not supported; use In, NotIn, Exists, DoesNotExist, Gt or Lt");
        }
    }

    /** Whether a node with these labels satisfies the requirement. */
    public boolean matches(Map<String, String> labels) {
        String v = labels.get(key);
        return switch (operator) {
            case "In" -> v != null && values.contains(v);
            case "NotIn" -> v == null || !values.contains(v);
            case "Exists" -> v != null;
            case "DoesNotExist" -> v == null;
            default -> compareNumber(v);
        };
    }

    private boolean compareNumber(String v) {
        if (v == null || values.size() != 1) {
            return false;
        }
        try {
            long have = Long.parseLong(v);
            long want = Long.parseLong(values.get(0));
            return "Gt".equals(operator) ? have > want : have < want;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
