package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads a job's raw {@code status.conditions}: terminal ones, and whether one is True. */
final class Conditions {
    private Conditions() {
    }

    /**
     * The first condition whose type is {@code successType} or {@code failureType} with status "True", as a
     * finish; reason and message fall back to the condition type and a plain sentence.
     */
    static Optional<JobFinish> terminal(GenericKubernetesResource job, String successType, String failureType) {
        String ref = Models.ref(job);
        Map<String, Object> status = RawTree.object(job.getAdditionalProperties(), "status", ref, "status");
        List<Object> conditions = RawTree.list(status, "conditions", ref, "status.conditions");
        if (conditions == null) {
            return Optional.empty();
        }
        for (int i = 0; i < conditions.size(); i++) {
            String path = "status.conditions[" + i + "]";
            Map<String, Object> c = RawTree.element(conditions, i, ref, path);
            String type = RawTree.string(c, "type", ref, path + ".type");
            boolean success = successType.equals(type);
            if (!success && !failureType.equals(type)) {
                continue;
            }
            if (!"True".equals(RawTree.string(c, "status", ref, path + ".status"))) {
                continue;
            }
            String reason = RawTree.string(c, "reason", ref, path + ".reason");
            String message = RawTree.string(c, "message", ref, path + ".message");
            return Optional.of(new JobFinish(success,
                    reason == null || reason.isEmpty() ? type : reason,
                    message == null || message.isEmpty() ? ref + (success ? " succeeded" : " failed") : message));
        }
        return Optional.empty();
    }

    /** Whether the job's {@code status.conditions} has a condition of this type with status "True". */
    static boolean isTrue(GenericKubernetesResource job, String type) {
        String ref = Models.ref(job);
        Map<String, Object> status = RawTree.object(job.getAdditionalProperties(), "status", ref, "status");
        List<Object> conditions = RawTree.list(status, "conditions", ref, "status.conditions");
        if (conditions == null) {
            return false;
        }
        for (int i = 0; i < conditions.size(); i++) {
            Map<String, Object> c = RawTree.element(conditions, i, ref, "status.conditions[" + i + "]");
            if (type.equals(c.get("type"))) {
                return "True".equals(c.get("status"));
            }
        }
        return false;
    }
}
