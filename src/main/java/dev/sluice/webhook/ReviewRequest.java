package dev.sluice.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request that the webhooks read. The objects stay raw
 * JSON trees, so whatever a client sent (including fields Sluice does not model) is kept and patched exactly.
 *
 * @param apiVersion group/version of the object's kind ({@code batch/v1}, {@code kueue.x-k8s.io/v1beta1})
 * @param object the object as submitted; null only on DELETE
 * @param oldObject the stored object on UPDATE and DELETE, else null
 */
record ReviewRequest(String uid, String apiVersion, String kind, String operation, String namespace, String name,
        String username, ObjectNode object, ObjectNode oldObject) {

    static final String REVIEW_API_VERSION = "admission.k8s.io/v1";

    String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    boolean isCreate() {
        return "CREATE".equals(operation);
    }

    boolean isUpdate() {
        return "UPDATE".equals(operation);
    }

    /** Parses the body; anything but a usable AdmissionReview is a {@link BadAdmissionReviewException}. */
    static ReviewRequest parse(byte[] body, ObjectMapper mapper) {
        JsonNode review;
        try {
            review = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw new BadAdmissionReviewException("the body is not JSON (" + e.getOriginalMessage()
                    + "); send an admission.k8s.io/v1 AdmissionReview");
        } catch (IOException e) {
            throw new BadAdmissionReviewException("the body cannot be read: " + e.getMessage());
        }
        if (review == null || !review.isObject()) {
            throw new BadAdmissionReviewException("the body is not a JSON object; send an admission.k8s.io/v1 AdmissionReview");
        }
        String reviewKind = review.path("kind").asText("");
        if (!reviewKind.isEmpty() && !"AdmissionReview".equals(reviewKind)) {
            throw new BadAdmissionReviewException("kind is " + reviewKind + ", expected AdmissionReview");
        }
        String version = review.path("apiVersion").asText("");
        if (!version.isEmpty() && !REVIEW_API_VERSION.equals(version)) {
            throw new BadAdmissionReviewException("apiVersion " + version + " is not supported; Sluice answers "
                    + REVIEW_API_VERSION + " (set admissionReviewVersions: [v1] in the webhook configuration)");
        }
        JsonNode request = review.get("request");
        if (request == null || !request.isObject()) {
            throw new BadAdmissionReviewException("the AdmissionReview has no request");
        }
        String uid = text(request, "uid");
        if (uid == null || uid.isEmpty()) {
            throw new BadAdmissionReviewException("request.uid is missing; the answer must carry it");
        }
        JsonNode kind = request.get("kind");
        if (kind == null || !kind.isObject() || text(kind, "kind") == null || text(kind, "version") == null) {
            throw new BadAdmissionReviewException("request.kind (group, version, kind) is missing");
        }
        String group = text(kind, "group");
        String apiVersion = group == null || group.isEmpty() ? text(kind, "version") : group + "/" + text(kind, "version");
        String operation = text(request, "operation");
        if (operation == null) {
            throw new BadAdmissionReviewException("request.operation is missing");
        }
        ObjectNode object = objectOrNull(request, "object");
        if (object == null && !"DELETE".equals(operation)) {
            throw new BadAdmissionReviewException("request.object is missing or not an object; a " + operation
                    + " review must carry the object");
        }
        ObjectNode oldObject = objectOrNull(request, "oldObject");
        if (oldObject == null && "UPDATE".equals(operation)) {
            throw new BadAdmissionReviewException("request.oldObject is missing; an UPDATE review must carry it");
        }
        String username = text(request.path("userInfo"), "username");
        return new ReviewRequest(uid, apiVersion, text(kind, "kind"), operation, text(request, "namespace"),
                text(request, "name"), username == null ? "" : username, object, oldObject);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || !v.isTextual() ? null : v.asText();
    }

    private static ObjectNode objectOrNull(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v instanceof ObjectNode o ? o : null;
    }
}
