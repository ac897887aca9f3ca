package dev.sluice.engine;

import java.util.List;
import java.util.Map;

/** One requirement of a label selector: operator In, NotIn, Exists or DoesNotExist. */
public record LabelSelectorRequirement(String key, String operator, List<String> values) {
    public LabelSelectorRequirement {
        values = values == null ? List.of() : List.copyOf(values);
        if (!List.of("In", "NotIn", "Exists", "DoesNotExist").contains(operator)) {
            throw new IllegalArgumentException("label selector operator '" + operator + "' for key '" + key
                    + "' is not supported; use In, NotIn, Exists or DoesNotExist");
        }
    }

    public boolean matches(Map<String, String> labels) {
        String v = labels.get(key);
        return switch (operator) {
            case "In" -> v != null && values.contains(v);
            case "NotIn" -> v == null || !values.contains(v);
            case "Exists" -> v != null;
            default -> v == null; // DoesNotExist
        };
    }
}
