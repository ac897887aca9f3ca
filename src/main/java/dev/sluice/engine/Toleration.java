package dev.sluice.engine;

/** A pod toleration, with Kubernetes' matching rules. */
public record Toleration(String key, String operator, String value, String effect) {
    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null || operator.isEmpty() ? "Equal" : operator;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /** Kubernetes semantics: empty effect matches all effects; empty key with Exists tolerates everything. */
    public boolean tolerates(Taint taint) {
        if (!effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        if (key.isEmpty()) {
            return "Exists".equals(operator);
        }
        if (!key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case "Exists" -> true;
            case "Equal" -> value.equals(taint.value());
            default -> false;
        };
    }
}
