package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * What kube-apiserver allows of an update to a batch/v1 Job's pod template, from its own sources:
 * {@code pkg/registry/batch/job/strategy.go} ({@code validationOptionsForJob}: the scheduling directives may change
 * only while the old Job is suspended and has no {@code status.startTime}) and {@code pkg/apis/batch/validation}
 * ({@code validatePodTemplateUpdate}: then only the template's labels, annotations, nodeSelector, tolerations, node
 * affinity and scheduling gates; anything else in the template stays immutable). Kubernetes 1.36, as verified on a
 * real server, also refuses while the Job still has active pods; both conditions are enforced here, so a write that
 * passes works on every supported version.
 */
public final class JobRules {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Template fields validatePodTemplateUpdate lets change (paths below the template). */
    private static final List<String[]> SCHEDULING_DIRECTIVES = List.of(
            new String[] {"metadata", "labels"}, new String[] {"metadata", "annotations"},
            new String[] {"spec", "nodeSelector"}, new String[] {"spec", "tolerations"},
            new String[] {"spec", "schedulingGates"}, new String[] {"spec", "affinity", "nodeAffinity"});

    private JobRules() {
    }

    /** The API server's answer to changing Job {@code name} from {@code old} to {@code next}; empty: accepted. */
    public static Optional<ApiServerRules.Refusal> update(String name, JsonNode old, JsonNode next) {
        JsonNode oldTemplate = Semantic.normal(old.path("spec").path("template"));
        JsonNode newTemplate = Semantic.normal(next.path("spec").path("template"));
        if (oldTemplate.equals(newTemplate)) {
            return Optional.empty();
        }
        boolean suspended = old.path("spec").path("suspend").asBoolean(false);
        boolean notStarted = old.path("status").path("startTime").isMissingNode()
                || old.path("status").path("startTime").isNull();
        boolean noActivePods = old.path("status").path("active").asInt(0) == 0;
        boolean mutableDirectives = suspended && notStarted && noActivePods;
        if (mutableDirectives && withoutDirectives(oldTemplate).equals(withoutDirectives(newTemplate))) {
            return Optional.empty();
        }
        String message = "Job.batch \"" + name + "\" is invalid: spec.template: Invalid value: "
                + newTemplate + ": field is immutable";
        ObjectNode details = JSON.createObjectNode().put("name", name).put("group", "batch").put("kind", "Job");
        return Optional.of(new ApiServerRules.Refusal(422,
                ApiServerRules.status(422, "Invalid", message, "spec.template", details)));
    }

    /** The template with the mutable scheduling directives taken out. */
    static JsonNode withoutDirectives(JsonNode template) {
        JsonNode copy = template.deepCopy();
        for (String[] path : SCHEDULING_DIRECTIVES) {
            JsonNode parent = copy;
            for (int i = 0; i < path.length - 1 && parent != null; i++) {
                parent = parent.get(path[i]);
            }
            if (parent instanceof ObjectNode object) {
                object.remove(path[path.length - 1]);
            }
        }
        return Semantic.normal(copy);
    }
}
