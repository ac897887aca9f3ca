package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/** The validating webhook for Kueue's queue objects (kueue.x-k8s.io), which carry no queue label. */
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
        FieldErrors errors = switch (request.kind()) {
            case "ClusterQueue" -> ClusterQueueRules.validate(request.object());
            case "LocalQueue" -> LocalQueueRules.validate(request.object(), request.oldObject());
            case "ResourceFlavor" -> ResourceFlavorRules.validate(request.object());
            case "WorkloadPriorityClass" -> WorkloadPriorityClassRules.validate(request.object());
            default -> new FieldErrors();
        };
        if (errors.isEmpty()) {
            return Verdict.allow();
        }
        JsonNode name = request.object().path("metadata").path("name");
        return Verdict.invalid(errors.message(request.kind() + "." + GROUP, name.isTextual() ? name.asText() : request.name()));
    }
}
