package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.engine.Quantity;
import java.util.List;
import java.util.function.Predicate;

/** Typed reads from a raw object tree; a field of the wrong JSON type is recorded as an error and read as absent. */
final class Fields {
    private Fields() {
    }

    static boolean present(JsonNode parent, String field) {
        return parent != null && parent.has(field) && !parent.get(field).isNull();
    }

    static String text(JsonNode parent, String field, String path, FieldErrors errors) {
        if (!present(parent, field)) {
            return null;
        }
        JsonNode v = parent.get(field);
        if (!v.isTextual()) {
            errors.invalid(path, v, "must be a string");
            return null;
        }
        return v.asText();
    }

    static JsonNode object(JsonNode parent, String field, String path, FieldErrors errors) {
        return ofShape(parent, field, path, errors, JsonNode::isObject, "must be an object");
    }

    static JsonNode array(JsonNode parent, String field, String path, FieldErrors errors) {
        return ofShape(parent, field, path, errors, JsonNode::isArray, "must be a list");
    }

    /** An optional field that, when present, must have the given JSON shape. */
    private static JsonNode ofShape(JsonNode parent, String field, String path, FieldErrors errors,
            Predicate<JsonNode> shape, String problem) {
        if (!present(parent, field)) {
            return null;
        }
        JsonNode v = parent.get(field);
        if (!shape.test(v)) {
            errors.invalid(path, v, problem);
            return null;
        }
        return v;
    }

    /** An optional enum-like string that must be one of {@code supported}. */
    static String oneOf(JsonNode parent, String field, String path, List<String> supported, FieldErrors errors) {
        String v = text(parent, field, path, errors);
        if (v != null && !supported.contains(v)) {
            errors.notSupported(path, v, supported);
            return null;
        }
        return v;
    }

    /** A resource quantity (string or number) that must parse and not be negative; null when absent or invalid. */
    static Quantity quantity(JsonNode parent, String field, String path, FieldErrors errors) {
        if (!present(parent, field)) {
            return null;
        }
        JsonNode v = parent.get(field);
        if (!v.isTextual() && !v.isNumber()) {
            errors.invalid(path, v, "must be a quantity such as \"24\", \"500m\" or \"1Gi\"");
            return null;
        }
        Quantity q;
        try {
            q = Quantity.parse(v.isTextual() ? v.asText() : v.decimalValue().toPlainString());
        } catch (IllegalArgumentException e) {
            errors.invalid(path, v, "quantities must match the regular expression"
                    + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', such as \"24\", \"500m\" or \"1Gi\"");
            return null;
        }
        if (q.value().signum() < 0) {
            errors.invalid(path, v, "must be greater than or equal to 0");
            return null;
        }
        return q;
    }

    /** Records a name that breaks one of Kubernetes' name rules. */
    static void name(String path, String value, List<String> problems, FieldErrors errors) {
        if (!problems.isEmpty()) {
            errors.invalid(path, value, String.join("; ", problems));
        }
    }
}
