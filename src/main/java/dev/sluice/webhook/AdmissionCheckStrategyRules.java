package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue v0.19.2's checks of a ClusterQueue's admission checks (clusterqueue_webhook.go
 * validateAdmissionCheckOnFlavors): every onFlavors entry is a flavor of the ClusterQueue's resource groups; on
 * UPDATE, with the RejectUpdatesToCQWithInvalidOnFlavors gate off (Kueue's default), a rule left as it was while the
 * flavors stayed the same is not checked again. Also a check named twice, which Kueue's v1beta2 CRD refuses (a list
 * keyed by name) and Sluice's generated one cannot. A v1beta1 spec.admissionChecks replaces the strategy in the
 * stored v1beta2 object (Kueue's conversion), so the strategy is then not checked, as Kueue does not see it.
 */
final class AdmissionCheckStrategyRules {
    private static final String RULES = "spec.admissionChecksStrategy.admissionChecks";

    private AdmissionCheckStrategyRules() {
    }

    static FieldErrors validate(JsonNode cq, JsonNode old, boolean v1beta2, FieldErrors errors) {
        JsonNode spec = cq.path("spec");
        if (!v1beta2 && spec.path("admissionChecks").isArray() && !spec.path("admissionChecks").isEmpty()) {
            return errors;
        }
        JsonNode rules = spec.path("admissionChecksStrategy").path("admissionChecks");
        if (!rules.isArray()) {
            return errors;
        }
        Set<String> flavors = flavors(spec);
        Map<String, Set<String>> unchanged = old == null ? Map.of() : unchangedRules(old.path("spec"), flavors);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            JsonNode rule = rules.get(i);
            String name = rule.path("name").asText(null);
            if (name != null && !names.add(name)) {
                errors.duplicate(RULES + "[" + i + "]", new MapKey(name));
            }
            Set<String> onFlavors = texts(rule.path("onFlavors"));
            if (name != null && onFlavors.equals(unchanged.get(name))) {
                continue;
            }
            JsonNode list = rule.path("onFlavors");
            for (int j = 0; j < list.size(); j++) {
                if (list.get(j).isTextual() && !flavors.contains(list.get(j).asText())) {
                    errors.notSupported(RULES + "[" + i + "].onFlavors[" + j + "]", list.get(j).asText(),
                            new ArrayList<>(flavors));
                }
            }
        }
        return errors;
    }

    /** The old rules by name, when the old ClusterQueue had a strategy and the same flavors. */
    private static Map<String, Set<String>> unchangedRules(JsonNode oldSpec, Set<String> flavors) {
        JsonNode rules = oldSpec.path("admissionChecksStrategy").path("admissionChecks");
        if (!rules.isArray() || !flavors(oldSpec).equals(flavors)) {
            return Map.of();
        }
        Map<String, Set<String>> out = new HashMap<>();
        for (JsonNode rule : rules) {
            if (rule.path("name").isTextual()) {
                out.put(rule.path("name").asText(), texts(rule.path("onFlavors")));
            }
        }
        return out;
    }

    private static Set<String> flavors(JsonNode spec) {
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode group : spec.path("resourceGroups")) {
            for (JsonNode flavor : group.path("flavors")) {
                if (flavor.path("name").isTextual()) {
                    out.add(flavor.path("name").asText());
                }
            }
        }
        return out;
    }

    private static Set<String> texts(JsonNode list) {
        Set<String> out = new HashSet<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** A list-map key as the API server prints a duplicate: map[string]interface {}{"name":"prov"}. */
    private record MapKey(String name) {
        @Override
        public String toString() {
            return "map[string]interface {}{\"name\":\"" + name + "\"}";
        }
    }
}
