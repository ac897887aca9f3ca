package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Kueue's checks of a Cohort: the parent is a valid name other than the Cohort's own, and its quota pool and
 * fair-sharing weight follow a ClusterQueue's rules (borrowing and lending limits only under a parent). Cycles longer
 * than one are found by the engine, which makes the queues of a cycle inactive (a webhook sees one object at a time).
 */
final class CohortRules {

    private CohortRules() {
    }

    static FieldErrors validate(JsonNode cohort) {
        FieldErrors errors = new FieldErrors();
        JsonNode spec = Fields.object(cohort, "spec", "spec", errors);
        if (spec == null) {
            return errors;
        }
        String parent = Fields.text(spec, "parentName", "spec.parentName", errors);
        boolean hasParent = parent != null && !parent.isEmpty();
        if (hasParent) {
            Fields.name("spec.parentName", parent, Names.subdomain(parent), errors);
            if (parent.equals(cohort.path("metadata").path("name").asText())) {
                errors.invalid("spec.parentName", spec.get("parentName"), "a Cohort cannot be its own parent");
            }
        }
        ClusterQueueRules.resourceGroups(spec, hasParent, errors);
        ClusterQueueRules.fairSharing(spec, errors);
        return errors;
    }
}
