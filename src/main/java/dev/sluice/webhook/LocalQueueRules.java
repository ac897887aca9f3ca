package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/** A LocalQueue names a valid ClusterQueue, and keeps naming the same one: {@code spec.clusterQueue} is immutable. */
final class LocalQueueRules {
    private LocalQueueRules() {
    }

    /** @param old the stored object on UPDATE, else null */
    static FieldErrors validate(JsonNode lq, JsonNode old) {
        FieldErrors errors = new FieldErrors();
        JsonNode spec = Fields.object(lq, "spec", "spec", errors);
        String cq = Fields.text(spec, "clusterQueue", "spec.clusterQueue", errors);
        if (cq == null || cq.isEmpty()) {
            errors.required("spec.clusterQueue", "name the ClusterQueue this LocalQueue feeds");
        } else {
            Fields.name("spec.clusterQueue", cq, Names.subdomain(cq), errors);
        }
        Fields.oneOf(spec, "stopPolicy", "spec.stopPolicy", ClusterQueueRules.STOP_POLICIES, errors);
        if (old != null) {
            JsonNode oldSpec = old.path("spec");
            String before = oldSpec.path("clusterQueue").isTextual() ? oldSpec.get("clusterQueue").asText() : null;
            if (before != null && !before.equals(cq)) {
                errors.invalid("spec.clusterQueue", cq == null ? "" : cq, "field is immutable (it is \"" + before
                        + "\"); to move the queue to another ClusterQueue, delete the LocalQueue and create it again");
            }
        }
        return errors;
    }
}
