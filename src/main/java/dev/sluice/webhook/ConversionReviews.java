package dev.sluice.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.conversion.ConversionException;
import dev.sluice.api.conversion.KueueConversion;
import java.io.IOException;

/**
 * Answers an {@code apiextensions.k8s.io/v1} ConversionReview: every object of the request converted to
 * desiredAPIVersion, in the request's order, under the request's uid. Anything wrong — a body that is not a review,
 * an object that cannot be converted — is a Failure result naming the object and the field, never an exception:
 * the API server shows the message to whoever asked for the object.
 */
final class ConversionReviews {

    static final String API_VERSION = "apiextensions.k8s.io/v1";
    static final String KIND = "ConversionReview";

    private ConversionReviews() {
    }

    static ObjectNode answer(byte[] body, ObjectMapper json) {
        JsonNode review;
        try {
            review = json.readTree(body);
        } catch (JsonProcessingException e) {
            return failure(json, "", "the body is not JSON: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            return failure(json, "", "the body cannot be read: " + e.getMessage());
        }
        if (review == null || !review.isObject()) {
            return failure(json, "", "the body is not a ConversionReview (a JSON object)");
        }
        JsonNode request = review.path("request");
        String uid = request.path("uid").isTextual() ? request.path("uid").asText() : "";
        if (!API_VERSION.equals(review.path("apiVersion").asText()) || !KIND.equals(review.path("kind").asText())) {
            return failure(json, uid, "apiVersion/kind: " + review.path("apiVersion").asText("(missing)") + "/"
                    + review.path("kind").asText("(missing)") + " is not " + API_VERSION + "/" + KIND);
        }
        if (!request.isObject()) {
            return failure(json, uid, "request: the ConversionReview has no request");
        }
        if (uid.isEmpty()) {
            return failure(json, uid, "request.uid: missing; the API server always sends one");
        }
        String desired = request.path("desiredAPIVersion").asText("");
        if (!KueueConversion.VERSIONS.contains(desired)) {
            return failure(json, uid, "request.desiredAPIVersion: \"" + desired + "\" is not one Sluice converts to ("
                    + String.join(" or ", KueueConversion.VERSIONS) + ")");
        }
        JsonNode objects = request.path("objects");
        if (!objects.isArray()) {
            return failure(json, uid, "request.objects: must be a list of objects");
        }
        ArrayNode converted = json.createArrayNode();
        for (int i = 0; i < objects.size(); i++) {
            try {
                converted.add(KueueConversion.convert(objects.get(i), desired));
            } catch (ConversionException e) {
                return failure(json, uid, "request.objects[" + i + "]: " + e.getMessage());
            } catch (RuntimeException e) {
                // a shape no rule foresaw: still an answer the API server can show, not a 500
                return failure(json, uid, "request.objects[" + i + "]: cannot be converted: " + e);
            }
        }
        ObjectNode answer = envelope(json, uid);
        ObjectNode response = (ObjectNode) answer.get("response");
        response.set("convertedObjects", converted);
        response.putObject("result").put("status", "Success");
        return answer;
    }

    private static ObjectNode failure(ObjectMapper json, String uid, String message) {
        ObjectNode answer = envelope(json, uid);
        ObjectNode response = (ObjectNode) answer.get("response");
        response.putArray("convertedObjects");
        response.putObject("result").put("status", "Failure").put("message", message);
        return answer;
    }

    private static ObjectNode envelope(ObjectMapper json, String uid) {
        ObjectNode answer = json.createObjectNode().put("apiVersion", API_VERSION).put("kind", KIND);
        answer.putObject("response").put("uid", uid);
        return answer;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
