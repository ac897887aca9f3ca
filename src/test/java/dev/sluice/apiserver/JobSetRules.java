package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * What JobSet's validating webhook ({@code pkg/webhooks/jobset_webhook.go}, {@code ValidateUpdate}, JobSet v0.8 and
 * later) allows of an update: {@code spec.replicatedJobs} is immutable, except that the pod templates' labels,
 * annotations, nodeSelector, tolerations and scheduling gates may change while the old JobSet is suspended or the
 * update suspends it. A refusal is the webhook's denial as the API server passes it on: 403 with
 * {@code admission webhook "vjobset.kb.io" denied the request}.
 */
public final class JobSetRules {

    private static final List<String[]> MUTABLE_WHEN_SUSPENDED = List.of(
            new String[] {"metadata", "labels"}, new String[] {"metadata", "annotations"},
            new String[] {"spec", "nodeSelector"}, new String[] {"spec", "tolerations"},
            new String[] {"spec", "schedulingGates"});

    private JobSetRules() {
    }

    public static Optional<ApiServerRules.Refusal> update(String name, JsonNode old, JsonNode next) {
        JsonNode oldJobs = Semantic.normal(old.path("spec").path("replicatedJobs"));
        JsonNode newJobs = Semantic.normal(next.path("spec").path("replicatedJobs"));
        if (oldJobs.equals(newJobs)) {
            return Optional.empty();
        }
        boolean suspended = old.path("spec").path("suspend").asBoolean(false)
                || next.path("spec").path("suspend").asBoolean(false);
        if (suspended && Semantic.normal(munged(newJobs, oldJobs)).equals(oldJobs)) {
            return Optional.empty();
        }
        String message = "admission webhook \"vjobset.kb.io\" denied the request: spec.replicatedJobs: Invalid value: "
                + newJobs + ": field is immutable";
        return Optional.of(new ApiServerRules.Refusal(403, ApiServerRules.status(403, "Forbidden", message, null, null)));
    }

    /** The new replicated jobs with the fields that may change taken from the old ones (the webhook's mungedSpec). */
    private static JsonNode munged(JsonNode newJobs, JsonNode oldJobs) {
        if (!(newJobs instanceof ArrayNode) || !(oldJobs instanceof ArrayNode) || newJobs.size() != oldJobs.size()) {
            return newJobs;
        }
        ArrayNode out = ((ArrayNode) newJobs).deepCopy();
        for (int i = 0; i < out.size(); i++) {
            JsonNode podTemplate = out.get(i).path("template").path("spec").path("template");
            JsonNode oldTemplate = oldJobs.get(i).path("template").path("spec").path("template");
            if (!(podTemplate instanceof ObjectNode template)) {
                continue;
            }
            for (String[] path : MUTABLE_WHEN_SUSPENDED) {
                ObjectNode parent = template;
                JsonNode oldParent = oldTemplate;
                for (int p = 0; p < path.length - 1; p++) {
                    parent = parent.get(path[p]) instanceof ObjectNode o ? o : parent.putObject(path[p]);
                    oldParent = oldParent.path(path[p]);
                }
                String field = path[path.length - 1];
                JsonNode oldValue = oldParent.get(field);
                if (oldValue == null) {
                    parent.remove(field);
                } else {
                    parent.set(field, oldValue.deepCopy());
                }
            }
        }
        return out;
    }
}
