package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.conversion.ConversionException;
import dev.sluice.api.conversion.KueueConversion;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.io.IOException;

/**
 * Makes the test API server serve kueue.x-k8s.io v1beta1 the way a real one does with Sluice's CRDs: objects are
 * stored in v1beta2 (the storage version, the only one fabric8's mock knows of a multi-version CRD), and every
 * v1beta1 request is converted on the way in and on the way out with the same {@link KueueConversion} the
 * conversion webhook serves. A v1beta1 PATCH is applied to the stored object as v1beta1 sees it, as the API server
 * does. Watches of v1beta1 are not converted (the controller watches v1beta2); they are refused with a message.
 */
final class KueueVersions {

    static final String V1BETA1_PREFIX = "/apis/kueue.x-k8s.io/v1beta1/";
    private static final String V1BETA2_PREFIX = "/apis/kueue.x-k8s.io/v1beta2/";
    private static final String DISCOVERY = "/apis/kueue.x-k8s.io/v1beta1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private KueueVersions() {
    }

    static boolean isV1beta1(String path) {
        return path.startsWith(V1BETA1_PREFIX) || path.equals(DISCOVERY);
    }

    static MockResponse dispatch(RecordedRequest request, Dispatcher mock) {
        String path = request.getPath();
        if (path.equals(DISCOVERY)) {
            return discovery(mock);
        }
        String stored = V1BETA2_PREFIX + path.substring(V1BETA1_PREFIX.length());
        if (path.contains("watch=true") || path.startsWith(V1BETA1_PREFIX + "watch/")) {
            return status(400, "BadRequest", "the test API server converts kueue.x-k8s.io/v1beta1 requests but not "
                    + "watches; watch v1beta2 (the storage version) instead");
        }
        try {
            HttpMethod method = request.method();
            MockResponse answer;
            if (method == HttpMethod.POST || method == HttpMethod.PUT) {
                JsonNode body = JSON.readTree(request.getBody().getBytes());
                answer = mock.dispatch(forward(request, method, stored, up(body)));
            } else if (method == HttpMethod.PATCH) {
                answer = patch(request, stored, mock);
            } else {
                answer = mock.dispatch(forward(request, method, stored, null));
            }
            return down(answer);
        } catch (ConversionException e) {
            return status(422, "Invalid", "conversion to v1beta2 failed: " + e.getMessage());
        } catch (IOException e) {
            return status(400, "BadRequest", "the body is not JSON: " + e.getMessage());
        }
    }

    /** PATCH: read the stored object, apply the patch to its v1beta1 form, store the result in v1beta2. */
    private static MockResponse patch(RecordedRequest request, String stored, Dispatcher mock)
            throws IOException, ConversionException {
        String base = stored.contains("?") ? stored.substring(0, stored.indexOf('?')) : stored;
        String object = base.endsWith("/status") ? base.substring(0, base.length() - "/status".length()) : base;
        MockResponse current = mock.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, object,
                Headers.builder().build(), new Buffer()));
        if (current.code() != 200) {
            return current;
        }
        JsonNode old = KueueConversion.convert(JSON.readTree(current.getBody().getBytes()), KueueConversion.V1BETA1);
        JsonNode patch = JSON.readTree(request.getBody().getBytes());
        String type = String.valueOf(request.getHeader("Content-Type"));
        JsonNode next;
        if (type.startsWith("application/json-patch+json")) {
            try {
                next = JsonPatch.apply(patch, old);
            } catch (JsonPatchException e) {
                return status(422, "Invalid", "the JSON patch does not apply: " + e.getMessage());
            }
        } else {
            next = MergePatch.apply(old, patch);
        }
        return mock.dispatch(forward(request, HttpMethod.PUT, base, up(next)));
    }

    /** v1beta1's resource list: the same resources as v1beta2's (both versions serve every kind). */
    private static MockResponse discovery(Dispatcher mock) {
        MockResponse v1beta2 = mock.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, "/apis/kueue.x-k8s.io/v1beta2",
                Headers.builder().build(), new Buffer()));
        if (v1beta2.code() != 200) {
            return v1beta2;
        }
        try {
            ObjectNode list = (ObjectNode) JSON.readTree(v1beta2.getBody().getBytes());
            list.put("groupVersion", KueueConversion.V1BETA1);
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                    .setBody(list.toString());
        } catch (IOException | ClassCastException e) {
            return v1beta2;
        }
    }

    private static JsonNode up(JsonNode v1beta1) throws ConversionException {
        return KueueConversion.convert(v1beta1, KueueConversion.V1BETA2);
    }

    /** The mock's answer as v1beta1 sees it: each Kueue object (or list item) converted down. */
    private static MockResponse down(MockResponse answer) throws IOException, ConversionException {
        if (answer.getBody() == null || answer.getBody().size() == 0) {
            return answer;
        }
        JsonNode body = JSON.readTree(answer.getBody().getBytes());
        if (!(body instanceof ObjectNode object)) {
            return answer;
        }
        JsonNode converted;
        if (object.get("items") instanceof ArrayNode items) {
            String kind = object.path("kind").asText().replaceFirst("List$", "");
            ArrayNode down = JSON.createArrayNode();
            for (JsonNode item : items) {
                ObjectNode typed = ((ObjectNode) item).deepCopy();
                typed.put("apiVersion", KueueConversion.V1BETA2).put("kind", kind);
                down.add(KueueConversion.convert(typed, KueueConversion.V1BETA1));
            }
            object.set("items", down);
            object.put("apiVersion", KueueConversion.V1BETA1);
            converted = object;
        } else if (object.path("apiVersion").asText().equals(KueueConversion.V1BETA2)) {
            converted = KueueConversion.convert(object, KueueConversion.V1BETA1);
        } else {
            return answer; // a Status, or another kind's object
        }
        return new MockResponse().setResponseCode(answer.code()).setHeader("Content-Type", "application/json")
                .setBody(converted.toString());
    }

    private static RecordedRequest forward(RecordedRequest request, HttpMethod method, String path, JsonNode body) {
        Headers.Builder headers = Headers.builder();
        if (body != null) {
            headers.add("Content-Type", "application/json");
        }
        return new RecordedRequest("HTTP/1.1", method, path, headers.build(),
                body == null ? new Buffer(request.getBody().getBytes()) : new Buffer(body.toString().getBytes()));
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(ApiServerRules.status(code, reason, message, null, null));
    }
}
