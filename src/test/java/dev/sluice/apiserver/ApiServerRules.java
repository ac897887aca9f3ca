package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the suite's test API server (fabric8's mock, CRUD mode) refuse the writes a real one refuses, the way it
 * refuses them, for the objects Sluice writes but does not own: a batch/v1 Job's pod template ({@link JobRules}, 422
 * as kube-apiserver answers) and a JobSet's ({@link JobSetRules}, 403 as JobSet's validating webhook answers); and
 * it serves kueue.x-k8s.io v1beta1 by conversion to and from the stored v1beta2 ({@link KueueVersions}). Other
 * requests pass to the mock unchanged, except a LIST with a {@code limit}, which is paged as kube-apiserver pages it
 * ({@link Paging}). A JSON patch that does not apply to the stored object (a {@code remove} or {@code replace} of a
 * path that is gone, a failed {@code test}) is answered 422 with kube-apiserver's own Status, before any precondition is
 * looked at ({@link #NOT_APPLIED}). In the namespaces a test names ({@link #jobController136}), the Job controller of
 * Kubernetes 1.36 plays its part: it clears the start time of a suspended Job itself, and gets there before the next
 * write to that Job. Tests can also make the server deny one object's writes ({@link #deny}), as an admission webhook
 * or a policy engine would, or as a slow etcd that stores nothing until the test allows it again.
 *
 * <p>Installed with {@code @WithKubernetesTestServer(setup = ApiServerRules.class)}: it wraps the mock's dispatcher.
 */
public final class ApiServerRules implements Consumer<KubernetesServer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern JOB = Pattern.compile("/apis/batch/v1/namespaces/([^/]+)/jobs/([^/?]+)(\\?.*)?");
    private static final Pattern JOB_OR_STATUS = Pattern.compile(
            "(/apis/batch/v1/namespaces/([^/]+)/jobs/[^/?]+)(/status)?(\\?.*)?");
    /**
     * kube-apiserver's answer to a JSON patch that does not apply ({@code patch.go}: {@code NewGenericServerResponse(422,
     * ...)}, whose Status has the generic message and neither causes nor the patch's error).
     */
    public static final String NOT_APPLIED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
            + "\"status\":\"Failure\",\"message\":\"the server rejected our request due to an error in our request\","
            + "\"reason\":\"Invalid\",\"details\":{},\"code\":422}";
    /** Namespaces where the Job controller clears a suspended Job's start time (Kubernetes 1.36). */
    private static final java.util.Set<String> JOB_CONTROLLER_136 = ConcurrentHashMap.newKeySet();
    /** How often each denial answered. */
    private static final Map<String, Integer> DENIALS = new ConcurrentHashMap<>();
    private static final Pattern JOBSET = Pattern.compile(
            "/apis/jobset\\.x-k8s\\.io/v1alpha2/namespaces/([^/]+)/jobsets/([^/?]+)(\\?.*)?");
    /** Denials set by tests: "METHOD path" (no query) to the answer. */
    private static final Map<String, Refusal> DENIED = new ConcurrentHashMap<>();
    /** How many writes each rule refused (tests assert the rules were in force). */
    private static final Map<String, Integer> REFUSED = new ConcurrentHashMap<>();

    /** A refusal: HTTP code and a Status body. */
    public record Refusal(int code, String body) {
    }

    @Override
    public void accept(KubernetesServer server) {
        install(server.getKubernetesMockServer());
    }

    /** Wraps the dispatcher of a running fabric8 mock server. */
    public static void install(io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server) {
        try {
            var serverField = io.fabric8.mockwebserver.DefaultMockServer.class.getDeclaredField("server");
            serverField.setAccessible(true);
            var web = (io.fabric8.mockwebserver.MockWebServer) serverField.get(server);
            var dispatcherField = io.fabric8.mockwebserver.MockWebServer.class.getDeclaredField("dispatcher");
            dispatcherField.setAccessible(true);
            Dispatcher current = (Dispatcher) dispatcherField.get(web);
            if (!(current instanceof Enforcing)) {
                web.setDispatcher(new Enforcing(current));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot wrap the test API server's dispatcher (fabric8 changed?)", e);
        }
    }

    /** From now on, {@code method} on {@code path} (e.g. PATCH of one Job) is answered {@code code} with a Status. */
    public static void deny(String method, String path, int code, String reason, String message) {
        DENIED.put(method + " " + path, new Refusal(code, status(code, reason, message, null, null)));
    }

    public static void allow(String method, String path) {
        DENIED.remove(method + " " + path);
    }

    /** How many requests the denial of {@code method} on {@code path} answered so far. */
    public static int denials(String method, String path) {
        return DENIALS.getOrDefault(method + " " + path, 0);
    }

    /**
     * In {@code namespace} the Job controller behaves as on Kubernetes 1.36: it clears {@code status.startTime} of a
     * suspended Job, and its write is stored just before the next write to that Job (it wins the race).
     */
    public static void jobController136(String namespace) {
        JOB_CONTROLLER_136.add(namespace);
    }

    /**
     * How many writes the named rule refused so far: "job-template", "jobset-template", "json-patch" (a JSON patch that
     * did not apply); "job-controller-start-time" counts the start times the 1.36 Job controller cleared.
     */
    public static int refusals(String rule) {
        return REFUSED.getOrDefault(rule, 0);
    }

    /** LIST pages served for a collection path (e.g. /apis/kueue.x-k8s.io/v1beta1/workloads); see {@link Paging}. */
    public static int listPages(String collection) {
        return Paging.pages(collection);
    }

    /** Of those, the pages asked for with a continue token. */
    public static int continuedListPages(String collection) {
        return Paging.continued(collection);
    }

    /** A Status body as the API server writes it. */
    static String status(int code, String reason, String message, String field, ObjectNode details) {
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        if (details != null) {
            status.set("details", details);
            if (field != null) {
                details.putArray("causes").addObject().put("reason", "FieldValueInvalid").put("message", message)
                        .put("field", field);
            }
        }
        return status.toString();
    }

    /** The dispatcher that checks writes before the mock applies them. */
    static final class Enforcing extends Dispatcher {

        private final Dispatcher mock;

        Enforcing(Dispatcher mock) {
            this.mock = mock;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            int q = path.indexOf('?');
            String key = request.getMethod() + " " + (q < 0 ? path : path.substring(0, q));
            Refusal denied = DENIED.get(key);
            if (denied != null) {
                DENIALS.merge(key, 1, Integer::sum);
                return answer(denied);
            }
            if (KueueVersions.isV1beta1(path)) {
                return KueueVersions.dispatch(request, this); // converted, then paged below as v1beta2
            }
            MockResponse page = Paging.page(mock, request);
            if (page != null) {
                return page;
            }
            HttpMethod method = request.method();
            if (method == HttpMethod.PATCH || method == HttpMethod.PUT) {
                jobControllerFirst(path);
                Optional<Refusal> notApplied = applies(request, path);
                if (notApplied.isPresent()) {
                    return answer(notApplied.get());
                }
                Optional<Refusal> refusal = check(request, path);
                if (refusal.isPresent()) {
                    return answer(refusal.get());
                }
            }
            return mock.dispatch(request);
        }

        private Optional<Refusal> check(RecordedRequest request, String path) {
            Matcher job = JOB.matcher(path);
            Matcher jobSet = JOBSET.matcher(path);
            boolean isJob = job.matches();
            if (!isJob && !jobSet.matches()) {
                return Optional.empty();
            }
            Matcher m = isJob ? job : jobSet;
            String base = path.substring(0, path.length() - (m.group(3) == null ? 0 : m.group(3).length()));
            MockResponse current = mock.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, base,
                    Headers.builder().build(), new Buffer()));
            if (current.code() != 200) {
                return Optional.empty();
            }
            try {
                JsonNode old = JSON.readTree(current.getBody().getBytes());
                JsonNode next = after(request, old);
                if (next == null) {
                    return Optional.empty();
                }
                Optional<Refusal> refusal = isJob ? JobRules.update(m.group(2), old, next)
                        : JobSetRules.update(m.group(2), old, next);
                refusal.ifPresent(r -> REFUSED.merge(isJob ? "job-template" : "jobset-template", 1, Integer::sum));
                return refusal;
            } catch (java.io.IOException | RuntimeException e) {
                return Optional.empty(); // not for these rules to judge; the mock answers as it does
            }
        }

        /**
         * A JSON patch is applied to the stored object as it is now (kube-apiserver applies it before it compares the
         * resourceVersion the patch sets): one that does not apply is refused with kube-apiserver's 422.
         */
        private Optional<Refusal> applies(RecordedRequest request, String path) {
            if (request.method() != HttpMethod.PATCH
                    || !String.valueOf(request.getHeader("Content-Type")).startsWith("application/json-patch+json")) {
                return Optional.empty();
            }
            int q = path.indexOf('?');
            String object = q < 0 ? path : path.substring(0, q);
            object = object.endsWith("/status") ? object.substring(0, object.length() - "/status".length()) : object;
            JsonNode current = stored(object);
            if (current == null) {
                return Optional.empty(); // the mock answers (404)
            }
            try {
                // as strict as kube-apiserver's json-patch: a remove of a missing path fails too
                JsonPatch.apply(JSON.readTree(request.getBody().getBytes()), current,
                        java.util.EnumSet.of(io.fabric8.zjsonpatch.CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT));
                return Optional.empty();
            } catch (io.fabric8.zjsonpatch.JsonPatchException e) {
                REFUSED.merge("json-patch", 1, Integer::sum);
                return Optional.of(new Refusal(422, NOT_APPLIED));
            } catch (java.io.IOException | RuntimeException e) {
                return Optional.empty(); // not for this rule to judge
            }
        }

        /**
         * Kubernetes 1.36's Job controller, where a test switched it on: a suspended Job that still has a start time
         * gets it cleared (a status write of its own) before the write that was sent is looked at.
         */
        private void jobControllerFirst(String path) {
            Matcher m = JOB_OR_STATUS.matcher(path);
            if (!m.matches() || !JOB_CONTROLLER_136.contains(m.group(2))) {
                return;
            }
            JsonNode job = stored(m.group(1));
            if (job == null || !job.path("spec").path("suspend").asBoolean(false)
                    || job.path("status").path("startTime").isMissingNode()
                    || job.path("status").path("startTime").isNull()) {
                return;
            }
            ObjectNode cleared = job.deepCopy();
            ((ObjectNode) cleared.get("status")).remove("startTime");
            MockResponse put = mock.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.PUT, m.group(1) + "/status",
                    Headers.builder().add("Content-Type", "application/json").build(),
                    new Buffer().writeUtf8(cleared.toString())));
            if (put.code() < 300) {
                REFUSED.merge("job-controller-start-time", 1, Integer::sum);
            }
        }

        private JsonNode stored(String objectPath) {
            MockResponse current = mock.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, objectPath,
                    Headers.builder().build(), new Buffer()));
            if (current.code() != 200) {
                return null;
            }
            try {
                return JSON.readTree(current.getBody().getBytes());
            } catch (java.io.IOException e) {
                return null;
            }
        }

        /** The object the write would leave; null for a patch type these rules do not compute. */
        private static JsonNode after(RecordedRequest request, JsonNode old) throws java.io.IOException {
            // getBytes, not readUtf8: reading drains the buffer, and the mock still has to read the body
            JsonNode body = JSON.readTree(request.getBody().getBytes());
            if (request.method() == HttpMethod.PUT) {
                return body;
            }
            String type = String.valueOf(request.getHeader("Content-Type"));
            if (type.startsWith("application/json-patch+json")) {
                return JsonPatch.apply(body, old);
            }
            if (type.startsWith("application/merge-patch+json")) {
                return MergePatch.apply(old, body);
            }
            return null;
        }

        private static MockResponse answer(Refusal refusal) {
            return new MockResponse().setResponseCode(refusal.code()).setHeader("Content-Type", "application/json")
                    .setBody(refusal.body());
        }
    }
}
