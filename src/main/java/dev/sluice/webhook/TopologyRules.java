package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.v1beta2.TopologyLevel;
import dev.sluice.api.v1beta2.TopologySpec;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Topology, checked as the API server checks Kueue's CRD (its schema and CEL rules on spec.levels: 1 to 16 levels,
 * unique, kubernetes.io/hostname only as the lowest, immutable), with the API server's wording.
 */
final class TopologyRules {
    private static final Pattern NODE_LABEL = Pattern.compile(TopologyLevel.NODE_LABEL_PATTERN);

    private TopologyRules() {
    }

    static FieldErrors validate(JsonNode topology, JsonNode old) {
        FieldErrors errors = new FieldErrors();
        JsonNode spec = Fields.object(topology, "spec", "spec", errors);
        JsonNode levels = Fields.array(spec, "levels", "spec.levels", errors);
        if (levels == null) {
            if (!Fields.present(spec, "levels")) {
                errors.required("spec.levels", "");
            }
            return errors;
        }
        if (levels.isEmpty()) {
            errors.invalid("spec.levels", 0, "spec.levels in body should have at least 1 items");
        } else if (levels.size() > TopologySpec.MAX_LEVELS) {
            errors.tooMany("spec.levels", levels.size(), TopologySpec.MAX_LEVELS);
        }
        Set<JsonNode> seen = new HashSet<>();
        boolean unique = true;
        for (int i = 0; i < levels.size(); i++) {
            String p = "spec.levels[" + i + "].nodeLabel";
            JsonNode level = levels.get(i);
            unique &= seen.add(level);
            if (!level.isObject()) {
                errors.invalid("spec.levels[" + i + "]", level, "must be an object");
                continue;
            }
            String label = Fields.text(level, "nodeLabel", p, errors);
            if (label == null) {
                if (!Fields.present(level, "nodeLabel")) {
                    errors.required(p, "");
                }
            } else if (label.isEmpty()) {
                errors.invalid(p, label, p + " in body should be at least 1 chars long");
            } else if (label.length() > TopologyLevel.NODE_LABEL_MAX_LENGTH) {
                errors.add(p + ": Too long: may not be more than " + TopologyLevel.NODE_LABEL_MAX_LENGTH + " bytes");
            } else if (!NODE_LABEL.matcher(label).matches()) {
                errors.invalid(p, label, p + " in body should match '" + TopologyLevel.NODE_LABEL_PATTERN + "'");
            }
        }
        if (!unique) {
            errors.invalid("spec.levels", "array", TopologySpec.UNIQUE_MESSAGE);
        }
        for (int i = 0; i + 1 < levels.size(); i++) {
            if (TopologySpec.HOSTNAME.equals(levels.get(i).path("nodeLabel").asText(null))) {
                errors.invalid("spec.levels", "array", TopologySpec.HOSTNAME_MESSAGE);
                break;
            }
        }
        JsonNode oldLevels = old == null ? null : old.path("spec").get("levels");
        if (oldLevels != null && !oldLevels.equals(levels)) {
            errors.invalid("spec.levels", "array", TopologySpec.IMMUTABLE_MESSAGE);
        }
        return errors;
    }
}
