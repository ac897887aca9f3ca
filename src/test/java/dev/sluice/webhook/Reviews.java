package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/** AdmissionReview requests built from manifests (the seeds in src/test/resources), and their patches applied. */
final class Reviews {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final String USER = "kubernetes-admin";
    static final String CONTROLLER = "system:serviceaccount:sluice-system:sluice";

    private Reviews() {
    }

    /** All documents of a multi-document YAML test resource, e.g. {@code /seeds/gke-multislice/kueue.yaml}. */
    static List<ObjectNode> load(String resource) {
        try (InputStream in = Reviews.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return YAML.readerFor(ObjectNode.class).<ObjectNode>readValues(in).readAll().stream()
                    .filter(n -> n != null && !n.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode one(String resource, String name) {
        return load(resource).stream().filter(o -> name.equals(o.path("metadata").path("name").asText()))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(name + " not in " + resource));
    }

    static ObjectNode parse(String yaml) {
        try {
            return (ObjectNode) YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode create(ObjectNode object) {
        return review("CREATE", object, null, USER);
    }

    static ObjectNode update(ObjectNode object, ObjectNode old, String username) {
        return review("UPDATE", object, old, username);
    }

    /** A review as the API server sends it: request kind from the object, namespace defaulted to "default". */
    static ObjectNode review(String operation, ObjectNode object, ObjectNode old, String username) {
        ObjectNode subject = object != null ? object : old;
        String apiVersion = subject.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        ObjectNode review = Webhook.JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1");
        review.put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", UUID.randomUUID().toString());
        ObjectNode kind = request.putObject("kind");
        kind.put("group", slash < 0 ? "" : apiVersion.substring(0, slash));
        kind.put("version", slash < 0 ? apiVersion : apiVersion.substring(slash + 1));
        kind.put("kind", subject.path("kind").asText());
        request.put("name", subject.path("metadata").path("name").asText());
        String namespace = subject.path("metadata").path("namespace").asText("default");
        request.put("namespace", namespace);
        request.put("operation", operation);
        request.putObject("userInfo").put("username", username);
        if (object != null) {
            request.set("object", object);
        }
        if (old != null) {
            request.set("oldObject", old);
        }
        request.put("dryRun", false);
        return review;
    }

    /** The decoded JSON patch of an answer (an empty array when it carries none). */
    static JsonNode patch(JsonNode response) throws IOException {
        if (!response.has("patch")) {
            return Webhook.JSON.createArrayNode();
        }
        if (!"JSONPatch".equals(response.path("patchType").asText())) {
            throw new AssertionError("patchType is " + response.path("patchType"));
        }
        return Webhook.JSON.readTree(Base64.getDecoder().decode(response.get("patch").asText()));
    }

    /**
     * Applies a JSON patch with an independent implementation, Parsson (jakarta.json): fabric8's zjsonpatch decodes
     * "~01" wrongly.
     */
    static JsonNode apply(JsonNode patch, JsonNode document) throws IOException {
        JsonStructure doc = read(document.toString());
        JsonStructure result = Json.createPatch(read(patch.toString()).asJsonArray()).apply(doc);
        return Webhook.JSON.readTree(result.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static JsonStructure read(String json) {
        try (JsonReader r = Json.createReader(new StringReader(json))) {
            return r.read();
        }
    }

    /** A Deployment carrying the queue label: a kind no adapter handles (Sluice queues batch work, not services). */
    static ObjectNode labeledDeployment() {
        return Reviews.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, labels: {kueue.x-k8s.io/queue-name: q}}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx}]}
                """);
    }
}
