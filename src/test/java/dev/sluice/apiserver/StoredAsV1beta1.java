package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Objects a cluster that ran Kueue 0.15 or older still stores as kueue.x-k8s.io/v1beta1, for the test API server: a
 * real API server hands each such object to the CRD's conversion webhook whenever a client reads it in v1beta2, so a
 * controller that lists them before its own {@code /convert} listens is answered 500, as kube-apiserver answers. Here
 * the first request of any kind that has such objects (a LIST, a watch, a read or a write, in either version) sends all
 * of that kind's objects to the webhook in one {@code apiextensions.k8s.io/v1} ConversionReview over HTTPS, trusting
 * only the given certificate; on success the converted objects are stored in the mock (as the API server stores an
 * object again on its next write; it would convert on every read, which the controller's start cannot tell apart), and
 * the request goes on; on failure the request is answered 500 with kube-apiserver's message and the objects stay as they
 * were, so the next request tries again.
 */
public final class StoredAsV1beta1 extends Dispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern KUEUE = Pattern.compile(
            "/apis/kueue\\.x-k8s\\.io/v1beta[12]/(?:watch/)?(?:namespaces/[^/]+/)?([a-z]+)(?:[/?].*)?");

    private final Dispatcher next;
    private final Supplier<URI> webhook;
    private final Path trustedCert;
    /** Resource (plural) to its objects still stored as v1beta1. */
    private final Map<String, List<ObjectNode>> stored = new LinkedHashMap<>();
    private final Map<String, Integer> converted = new ConcurrentHashMap<>();
    private final Map<String, Integer> failed = new ConcurrentHashMap<>();

    private StoredAsV1beta1(Dispatcher next, Supplier<URI> webhook, Path trustedCert, List<ObjectNode> objects) {
        this.next = next;
        this.webhook = webhook;
        this.trustedCert = trustedCert;
        for (ObjectNode o : objects) {
            if (!"kueue.x-k8s.io/v1beta1".equals(o.path("apiVersion").asText())) {
                throw new IllegalArgumentException("not a v1beta1 object: " + o);
            }
            stored.computeIfAbsent(plural(o.path("kind").asText()), k -> new ArrayList<>()).add(o.deepCopy());
        }
    }

    /**
     * Puts {@code objects} (kueue.x-k8s.io/v1beta1) in front of the mock, as stored by Kueue 0.15; {@code webhook} is
     * the CRDs' conversion webhook (asked when needed, so a port chosen before the application starts will do). Call
     * after {@link ApiServerRules#install}. Returns the rule, to ask what it converted.
     */
    public static StoredAsV1beta1 install(KubernetesMockServer server, Supplier<URI> webhook, Path trustedCert,
            List<ObjectNode> objects) {
        try {
            var serverField = io.fabric8.mockwebserver.DefaultMockServer.class.getDeclaredField("server");
            serverField.setAccessible(true);
            var web = (io.fabric8.mockwebserver.MockWebServer) serverField.get(server);
            var dispatcherField = io.fabric8.mockwebserver.MockWebServer.class.getDeclaredField("dispatcher");
            dispatcherField.setAccessible(true);
            StoredAsV1beta1 rule = new StoredAsV1beta1((Dispatcher) dispatcherField.get(web), webhook, trustedCert, objects);
            web.setDispatcher(rule);
            return rule;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot wrap the test API server's dispatcher (fabric8 changed?)", e);
        }
    }

    /** How many objects of the resource (plural) the webhook converted, and how many of its calls failed. */
    public int converted(String plural) {
        return converted.getOrDefault(plural, 0);
    }

    public int failedCalls(String plural) {
        return failed.getOrDefault(plural, 0);
    }

    /** Resources whose objects are still stored as v1beta1 (not converted yet). */
    public synchronized java.util.Set<String> stillStored() {
        return java.util.Set.copyOf(stored.keySet());
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        Matcher m = KUEUE.matcher(request.getPath());
        if (m.matches()) {
            MockResponse refused = convertStored(m.group(1));
            if (refused != null) {
                return refused;
            }
        }
        return next.dispatch(request);
    }

    /** Converts the resource's v1beta1-stored objects through the webhook; a 500 answer when that fails, else null. */
    private synchronized MockResponse convertStored(String plural) {
        List<ObjectNode> objects = stored.get(plural);
        if (objects == null) {
            return null;
        }
        String kind = objects.get(0).path("kind").asText();
        List<ObjectNode> v1beta2;
        try {
            v1beta2 = review(objects);
        } catch (WebhookFailure e) {
            failed.merge(plural, 1, Integer::sum);
            String message = "conversion webhook for kueue.x-k8s.io/v1beta1, Kind=" + kind + " failed: " + e.getMessage();
            return new MockResponse().setResponseCode(500).setHeader("Content-Type", "application/json")
                    .setBody(ApiServerRules.status(500, "InternalError", message, null, null));
        }
        for (ObjectNode o : v1beta2) {
            store(plural, o);
        }
        stored.remove(plural);
        converted.merge(plural, v1beta2.size(), Integer::sum);
        return null;
    }

    /** Creates the converted object in the mock, then its status (the mock drops status on create, as a real server). */
    private void store(String plural, ObjectNode o) {
        String namespace = o.path("metadata").path("namespace").asText("");
        String collection = "/apis/kueue.x-k8s.io/v1beta2/" + (namespace.isEmpty() ? "" : "namespaces/" + namespace + "/")
                + plural;
        JsonNode status = o.remove("status");
        ((ObjectNode) o.get("metadata")).remove("resourceVersion");
        MockResponse created = next.dispatch(request(HttpMethod.POST, collection, o));
        if (created.code() != 201 && created.code() != 200) {
            throw new IllegalStateException("the mock did not store " + o + ": " + new String(created.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        if (status != null && !status.isEmpty()) {
            try {
                ObjectNode stored = (ObjectNode) JSON.readTree(new String(created.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8));
                stored.set("status", status);
                String path = collection + "/" + stored.path("metadata").path("name").asText() + "/status";
                MockResponse updated = next.dispatch(request(HttpMethod.PUT, path, stored));
                if (updated.code() != 200) {
                    throw new IllegalStateException("the mock did not store the status of " + path + ": "
                            + new String(updated.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static RecordedRequest request(HttpMethod method, String path, JsonNode body) {
        return new RecordedRequest("HTTP/1.1", method, path, Headers.builder().add("Content-Type", "application/json").build(),
                new Buffer(body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** One ConversionReview to desiredAPIVersion v1beta2, as kube-apiserver sends it (uid, objects in order). */
    private List<ObjectNode> review(List<ObjectNode> objects) throws WebhookFailure {
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        String uid = UUID.randomUUID().toString();
        ObjectNode req = review.putObject("request").put("uid", uid).put("desiredAPIVersion", "kueue.x-k8s.io/v1beta2");
        ArrayNode list = req.putArray("objects");
        objects.forEach(o -> list.add(o.deepCopy()));
        URI uri = URI.create(webhook.get() + "?timeout=30s");
        String post = "Post \"" + uri + "\"";
        HttpResponse<String> answer;
        try {
            answer = client().send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(review.toString()))
                    .build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new WebhookFailure(post + ": " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebhookFailure(post + ": interrupted");
        }
        if (answer.statusCode() != 200) {
            throw new WebhookFailure("conversion webhook response status code " + answer.statusCode());
        }
        try {
            JsonNode response = JSON.readTree(answer.body()).path("response");
            if (!uid.equals(response.path("uid").asText())) {
                throw new WebhookFailure("expected response.uid=\"" + uid + "\", got \"" + response.path("uid").asText() + "\"");
            }
            if (!"Success".equals(response.path("result").path("status").asText())) {
                throw new WebhookFailure(response.path("result").path("message").asText("conversion failed"));
            }
            List<ObjectNode> out = new ArrayList<>();
            for (JsonNode o : response.path("convertedObjects")) {
                out.add((ObjectNode) o);
            }
            if (out.size() != objects.size()) {
                throw new WebhookFailure("returned " + out.size() + " objects, expected " + objects.size());
            }
            return out;
        } catch (IOException | ClassCastException e) {
            throw new WebhookFailure("the answer is not a ConversionReview: " + e.getMessage());
        }
    }

    private static String describe(IOException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return root instanceof java.net.ConnectException ? "dial tcp: connect: " + message.toLowerCase(Locale.ROOT) : message;
    }

    private HttpClient client() throws WebhookFailure {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(trustedCert)) {
                trust.setCertificateEntry("webhook",
                        (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
        } catch (Exception e) {
            throw new WebhookFailure("x509: " + e.getMessage());
        }
    }

    /** Kueue's resource names. */
    static String plural(String kind) {
        return switch (kind) {
            case "ResourceFlavor" -> "resourceflavors";
            case "ClusterQueue" -> "clusterqueues";
            case "LocalQueue" -> "localqueues";
            case "Workload" -> "workloads";
            case "WorkloadPriorityClass" -> "workloadpriorityclasses";
            case "Cohort" -> "cohorts";
            default -> throw new IllegalArgumentException("not a kind Sluice serves: " + kind);
        };
    }

    private static final class WebhookFailure extends Exception {
        WebhookFailure(String message) {
            super(message);
        }
    }
}
