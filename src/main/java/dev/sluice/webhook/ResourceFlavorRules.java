package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.v1beta2.ResourceFlavorSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A ResourceFlavor's node labels, taints and tolerations, checked as Kubernetes checks them on nodes and pods, with
 * Kueue's limit of 8 of each; its topologyName as Kueue's CRD checks it.
 */
final class ResourceFlavorRules {
    static final int MAX_ITEMS = 8;
    static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    static final List<String> TOLERATION_OPERATORS = List.of("Exists", "Equal");
    private static final java.util.regex.Pattern TOPOLOGY_NAME =
            java.util.regex.Pattern.compile(ResourceFlavorSpec.TOPOLOGY_NAME_PATTERN);

    private ResourceFlavorRules() {
    }

    static FieldErrors validate(JsonNode rf) {
        return validate(rf, null);
    }

    /** {@code old}: the stored flavor on UPDATE, else null. */
    static FieldErrors validate(JsonNode rf, JsonNode old) {
        FieldErrors errors = new FieldErrors();
        JsonNode spec = Fields.object(rf, "spec", "spec", errors);
        nodeLabels(Fields.object(spec, "nodeLabels", "spec.nodeLabels", errors), errors);
        nodeTaints(Fields.array(spec, "nodeTaints", "spec.nodeTaints", errors), errors);
        tolerations(Fields.array(spec, "tolerations", "spec.tolerations", errors), errors);
        topology(spec, old == null ? null : old.get("spec"), errors);
        return errors;
    }

    /** Kueue's CRD rules on topologyName (its pattern, and the spec's CEL rules), in the API server's wording. */
    private static void topology(JsonNode spec, JsonNode oldSpec, FieldErrors errors) {
        String name = Fields.text(spec, "topologyName", "spec.topologyName", errors);
        if (name != null) {
            if (name.length() > 253) {
                errors.add("spec.topologyName: Too long: may not be more than 253 bytes");
            } else if (!TOPOLOGY_NAME.matcher(name).matches()) {
                errors.invalid("spec.topologyName", name, "spec.topologyName in body should match '"
                        + ResourceFlavorSpec.TOPOLOGY_NAME_PATTERN + "'");
            }
            JsonNode labels = spec.get("nodeLabels");
            if (labels == null || !labels.isObject() || labels.isEmpty()) {
                errors.invalid("spec", "object", ResourceFlavorSpec.TOPOLOGY_NEEDS_NODE_LABELS);
            }
        }
        if (oldSpec == null || !Fields.present(oldSpec, "topologyName")) {
            return;
        }
        if (!java.util.Objects.equals(spec == null ? null : spec.get("nodeLabels"), oldSpec.get("nodeLabels"))) {
            errors.invalid("spec", "object", ResourceFlavorSpec.NODE_LABELS_IMMUTABLE);
        }
        if (!java.util.Objects.equals(spec == null ? null : spec.get("tolerations"), oldSpec.get("tolerations"))) {
            errors.invalid("spec", "object", ResourceFlavorSpec.TOLERATIONS_IMMUTABLE);
        }
        if (!java.util.Objects.equals(spec == null ? null : spec.get("topologyName"), oldSpec.get("topologyName"))) {
            errors.invalid("spec", "object", ResourceFlavorSpec.TOPOLOGY_NAME_IMMUTABLE);
        }
    }

    private static void nodeLabels(JsonNode labels, FieldErrors errors) {
        if (labels == null) {
            return;
        }
        if (labels.size() > MAX_ITEMS) {
            errors.tooMany("spec.nodeLabels", labels.size(), MAX_ITEMS);
        }
        for (Map.Entry<String, JsonNode> e : labels.properties()) {
            Fields.name("spec.nodeLabels", e.getKey(), Names.qualifiedName(e.getKey()), errors);
            if (!e.getValue().isTextual()) {
                errors.invalid("spec.nodeLabels[" + e.getKey() + "]", e.getValue(), "must be a string");
            } else {
                Fields.name("spec.nodeLabels", e.getValue().asText(), Names.labelValue(e.getValue().asText()), errors);
            }
        }
    }

    private static void nodeTaints(JsonNode taints, FieldErrors errors) {
        if (taints == null) {
            return;
        }
        if (taints.size() > MAX_ITEMS) {
            errors.tooMany("spec.nodeTaints", taints.size(), MAX_ITEMS);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < taints.size(); i++) {
            String p = "spec.nodeTaints[" + i + "]";
            JsonNode t = taints.get(i);
            String key = Fields.text(t, "key", p + ".key", errors);
            if (key == null || key.isEmpty()) {
                errors.required(p + ".key", "name the taint, e.g. google.com/tpu");
            } else {
                Fields.name(p + ".key", key, Names.qualifiedName(key), errors);
            }
            String value = Fields.text(t, "value", p + ".value", errors);
            if (value != null) {
                Fields.name(p + ".value", value, Names.labelValue(value), errors);
            }
            String effect = Fields.text(t, "effect", p + ".effect", errors);
            if (effect == null || effect.isEmpty()) {
                errors.required(p + ".effect", "one of NoSchedule, PreferNoSchedule, NoExecute");
            } else if (!TAINT_EFFECTS.contains(effect)) {
                errors.notSupported(p + ".effect", effect, TAINT_EFFECTS);
            }
            if (key != null && effect != null && !seen.add(key + "\u0000" + effect)) {
                errors.duplicate(p, key + ":" + effect, "taints must be unique by key and effect pair");
            }
        }
    }

    private static void tolerations(JsonNode tolerations, FieldErrors errors) {
        if (tolerations == null) {
            return;
        }
        if (tolerations.size() > MAX_ITEMS) {
            errors.tooMany("spec.tolerations", tolerations.size(), MAX_ITEMS);
        }
        for (int i = 0; i < tolerations.size(); i++) {
            String p = "spec.tolerations[" + i + "]";
            JsonNode t = tolerations.get(i);
            String key = Fields.text(t, "key", p + ".key", errors);
            if (key != null && !key.isEmpty()) {
                Fields.name(p + ".key", key, Names.qualifiedName(key), errors);
            }
            String operator = Fields.text(t, "operator", p + ".operator", errors);
            String value = Fields.text(t, "value", p + ".value", errors);
            if ((key == null || key.isEmpty()) && !"Exists".equals(operator)) {
                errors.invalid(p + ".operator", operator == null ? "" : operator,
                        "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
            }
            if (operator != null && !operator.isEmpty() && !TOLERATION_OPERATORS.contains(operator)) {
                errors.notSupported(p + ".operator", operator, TOLERATION_OPERATORS);
            } else if ("Exists".equals(operator) && value != null && !value.isEmpty()) {
                errors.invalid(p + ".value", value, "value must be empty when `operator` is 'Exists'");
            } else if (value != null) {
                Fields.name(p + ".value", value, Names.labelValue(value), errors);
            }
            String effect = Fields.text(t, "effect", p + ".effect", errors);
            if (effect != null && !effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                errors.notSupported(p + ".effect", effect, TAINT_EFFECTS);
            }
            if (Fields.present(t, "tolerationSeconds") && !"NoExecute".equals(effect)) {
                errors.invalid(p + ".effect", effect == null ? "" : effect,
                        "effect must be 'NoExecute' when `tolerationSeconds` is set");
            }
        }
    }
}
