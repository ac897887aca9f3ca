package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/** Kubernetes' rules for a label selector (matchLabels and matchExpressions). */
final class LabelSelectors {
    static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelSelectors() {
    }

    static void validate(JsonNode selector, String path, FieldErrors errors) {
        if (selector == null) {
            return;
        }
        JsonNode labels = Fields.object(selector, "matchLabels", path + ".matchLabels", errors);
        if (labels != null) {
            for (Map.Entry<String, JsonNode> e : labels.properties()) {
                String p = path + ".matchLabels";
                Fields.name(p, e.getKey(), Names.qualifiedName(e.getKey()), errors);
                if (!e.getValue().isTextual()) {
                    errors.invalid(p + "[" + e.getKey() + "]", e.getValue(), "must be a string");
                } else {
                    Fields.name(p, e.getValue().asText(), Names.labelValue(e.getValue().asText()), errors);
                }
            }
        }
        JsonNode expressions = Fields.array(selector, "matchExpressions", path + ".matchExpressions", errors);
        if (expressions == null) {
            return;
        }
        for (int i = 0; i < expressions.size(); i++) {
            String p = path + ".matchExpressions[" + i + "]";
            JsonNode e = expressions.get(i);
            String key = Fields.text(e, "key", p + ".key", errors);
            if (key == null) {
                errors.required(p + ".key", "name the label");
            } else {
                Fields.name(p + ".key", key, Names.qualifiedName(key), errors);
            }
            String operator = Fields.text(e, "operator", p + ".operator", errors);
            JsonNode values = Fields.array(e, "values", p + ".values", errors);
            int count = values == null ? 0 : values.size();
            if (operator == null) {
                errors.required(p + ".operator", "one of In, NotIn, Exists, DoesNotExist");
            } else if (!OPERATORS.contains(operator)) {
                errors.notSupported(p + ".operator", operator, OPERATORS);
            } else if ((operator.equals("In") || operator.equals("NotIn")) && count == 0) {
                errors.required(p + ".values", "must be specified when `operator` is 'In' or 'NotIn'");
            } else if ((operator.equals("Exists") || operator.equals("DoesNotExist")) && count > 0) {
                errors.forbidden(p + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
            }
            for (int j = 0; j < count; j++) {
                JsonNode v = values.get(j);
                if (!v.isTextual()) {
                    errors.invalid(p + ".values[" + j + "]", v, "must be a string");
                } else {
                    Fields.name(p + ".values[" + j + "]", v.asText(), Names.labelValue(v.asText()), errors);
                }
            }
        }
    }
}
