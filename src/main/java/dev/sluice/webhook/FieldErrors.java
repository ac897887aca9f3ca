package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Problems found in one object, each naming the field path and what is wrong, worded as the API server words them
 * ({@code spec.x: Invalid value: "-1": must be greater than or equal to 0}) so a denial reads like any other
 * validation error in kubectl.
 */
final class FieldErrors {
    private final List<String> errors = new ArrayList<>();

    void invalid(String path, Object value, String detail) {
        errors.add(path + ": Invalid value: " + render(value) + ": " + detail);
    }

    /** An Invalid error that does not quote the value (Kubernetes' field.OmitValueType). */
    void invalidOmitValue(String path, String detail) {
        errors.add(path + ": Invalid value: " + detail);
    }

    void required(String path, String detail) {
        errors.add(path + ": Required value" + (detail.isEmpty() ? "" : ": " + detail));
    }

    void duplicate(String path, Object value) {
        errors.add(path + ": Duplicate value: " + render(value));
    }

    void duplicate(String path, Object value, String detail) {
        errors.add(path + ": Duplicate value: " + render(value) + ": " + detail);
    }

    void notSupported(String path, Object value, List<String> supported) {
        // as apimachinery's field.NotSupported: no detail when nothing is supported
        errors.add(path + ": Unsupported value: " + render(value) + (supported.isEmpty() ? "" : ": supported values: "
                + supported.stream().map(s -> '"' + s + '"').collect(Collectors.joining(", "))));
    }

    void tooMany(String path, int actual, int max) {
        errors.add(path + ": Too many: " + actual + ": must have at most " + max + " items");
    }

    void forbidden(String path, String detail) {
        errors.add(path + ": Forbidden: " + detail);
    }

    /** An error worded elsewhere (e.g. the API server's "Too long"). */
    void add(String error) {
        errors.add(error);
    }

    void addAll(FieldErrors other) {
        errors.addAll(other.errors);
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    List<String> all() {
        return List.copyOf(errors);
    }

    /** {@code Kind "name" is invalid: error} or, for several, {@code [error, error]}, as the API server says it. */
    String message(String kind, String name) {
        String list = errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
        return kind + " \"" + (name == null ? "" : name) + "\" is invalid: " + list;
    }

    private static String render(Object value) {
        if (value instanceof JsonNode node) {
            return node.isTextual() ? '"' + node.asText() + '"' : node.toString();
        }
        if (value instanceof String s) {
            return '"' + s + '"';
        }
        return String.valueOf(value);
    }
}
