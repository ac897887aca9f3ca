package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The validating webhook for Kueue's queue objects (kueue.x-k8s.io), which carry no queue label; v1beta1 and v1beta2
 * objects go through the same rules, each named with the fields of the version it was written in.
 */
final class QueueObjectValidation {
    static final String GROUP = "kueue.x-k8s.io";

    private QueueObjectValidation() {
    }

    static boolean handles(ReviewRequest request) {
        return GROUP.equals(request.group());
    }

    static Verdict validate(ReviewRequest request) {
        if (!request.isCreate() && !request.isUpdate()) {
            return Verdict.allow();
        }
        FieldErrors errors = errors(request.kind(), request.object(), request.oldObject());
        if (errors.isEmpty()) {
            return Verdict.allow();
        }
        JsonNode name = request.object().path("metadata").path("name");
        return Verdict.invalid(errors.message(request.kind() + "." + GROUP, name.isTextual() ? name.asText() : request.name()));
    }

    /** The rules of a kind (none for kinds that are not queue objects); old is the stored object on UPDATE, else null. */
    static FieldErrors errors(String kind, JsonNode object, JsonNode old) {
        boolean v1beta2 = "v1beta2".equals(object.path("apiVersion").asText("").replace(GROUP + "/", ""));
        return switch (kind) {
            case "ClusterQueue" -> AdmissionCheckStrategyRules.validate(object, old, v1beta2,
                    ClusterQueueRules.validate(object, v1beta2));
            case "Cohort" -> CohortRules.validate(object);
            case "LocalQueue" -> LocalQueueRules.validate(object, old);
            case "ResourceFlavor" -> ResourceFlavorRules.validate(object, old);
            case "Topology" -> TopologyRules.validate(object, old);
            case "WorkloadPriorityClass" -> WorkloadPriorityClassRules.validate(object);
            default -> new FieldErrors();
        };
    }
}
