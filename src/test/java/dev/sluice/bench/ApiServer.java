package dev.sluice.bench;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * The test API server as a process of its own: fabric8's mock server in CRUD mode on 127.0.0.1 (plain HTTP). It
 * counts the writes of every client except the benchmark's own (user agent {@value #BENCH_AGENT}), by method and
 * resource, and serves the counts at {@code GET /bench/writes}.
 * <p>
 * By default the store is indexed ({@link IndexedStore}); {@code --scan} keeps fabric8's store, which scans every
 * stored object on every request.
 * <p>
 * {@code java ... dev.sluice.bench.ApiServer PORT [--scan]}
 */
public final class ApiServer {

    /** The benchmark's clients announce themselves with this user agent; their writes are not the controller's. */
    public static final String BENCH_AGENT = "sluice-bench";
    static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private ApiServer() {
    }

    /** Counts controller writes; everything else goes to the CRUD dispatcher. */
    static final class CountingDispatcher extends KubernetesMixedDispatcher {
        private final Map<String, LongAdder> writes = new ConcurrentHashMap<>();

        private final boolean indexed;

        CountingDispatcher(boolean indexed) {
            super(new HashMap<>());
            this.indexed = indexed;
            if (indexed) {
                installIndexedStore(this);
            }
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if (path.startsWith("/bench/writes")) {
                return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(counts());
            }
            String agent = request.getHeader("User-Agent");
            if (WRITES.contains(request.getMethod()) && (agent == null || !agent.startsWith(BENCH_AGENT))) {
                writes.computeIfAbsent(request.getMethod() + " " + resourceOf(path), k -> new LongAdder()).increment();
            }
            if (!indexed) {
                return super.dispatch(request);
            }
            return IndexedStore.narrow(hint(request), () -> super.dispatch(request));
        }

        String counts() {
            Map<String, Long> sorted = new TreeMap<>();
            writes.forEach((k, v) -> sorted.put(k, v.sum()));
            long total = sorted.values().stream().mapToLong(Long::longValue).sum();
            StringBuilder sb = new StringBuilder("{\"total\": ").append(total).append(", \"byKind\": {");
            String sep = "";
            for (var e : sorted.entrySet()) {
                sb.append(sep).append('"').append(e.getKey()).append("\": ").append(e.getValue());
                sep = ", ";
            }
            return sb.append("}}").toString();
        }
    }

    /** The store's scans narrowed to the resource and object a request names (POST: the name in its body). */
    static IndexedStore.Hint hint(RecordedRequest request) {
        String path = request.getPath();
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] parts = p.split("/");
        int start;
        if (p.startsWith("/api/") && parts.length >= 3) {
            start = 3;
        } else if (p.startsWith("/apis/") && parts.length >= 4) {
            start = 4;
        } else {
            return null;
        }
        String plural;
        String name = null;
        if (parts.length > start && "namespaces".equals(parts[start]) && parts.length > start + 2) {
            plural = parts[start + 2];
            name = parts.length > start + 3 ? parts[start + 3] : null;
        } else if (parts.length > start) {
            plural = parts[start];
            name = parts.length > start + 1 ? parts[start + 1] : null;
        } else {
            return null;
        }
        if (path.contains("fieldSelector") || path.contains("watch=")) {
            name = null; // a field selector or watch by name: let the scan see the whole resource
        }
        if (name == null && "POST".equals(request.getMethod())) {
            name = nameInBody(request.getBody() == null ? null
                    : new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8)); // getBytes does not consume
            if (name == null) {
                return new IndexedStore.Hint(plural, null);
            }
        }
        return new IndexedStore.Hint(plural, name);
    }

    static String nameInBody(String body) {
        if (body == null) {
            return null;
        }
        try {
            var node = io.fabric8.kubernetes.client.utils.Serialization.jsonMapper().readTree(body);
            var name = node.path("metadata").path("name");
            return name.isTextual() ? name.asText() : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** Replaces the CRUD dispatcher's object map (a synchronized LinkedHashMap) with the indexed store. */
    static void installIndexedStore(KubernetesMixedDispatcher mixed) {
        try {
            java.lang.reflect.Field crud = KubernetesMixedDispatcher.class.getDeclaredField("kubernetesCrudDispatcher");
            crud.setAccessible(true);
            Object dispatcher = crud.get(mixed);
            java.lang.reflect.Field map = io.fabric8.mockwebserver.crud.CrudDispatcher.class.getDeclaredField("map");
            map.setAccessible(true);
            map.set(dispatcher, new IndexedStore());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot index the mock server's store (fabric8 changed?): " + e, e);
        }
    }

    /** {@code workloads/status} from {@code /apis/kueue.x-k8s.io/v1beta1/namespaces/ns/workloads/name/status?x}. */
    static String resourceOf(String path) {
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] parts = p.split("/");
        int start = p.startsWith("/api/") ? 3 : 4;
        if (parts.length > start + 1 && "namespaces".equals(parts[start]) && parts.length > start + 2) {
            start += 2;
        }
        if (parts.length <= start) {
            return p;
        }
        String resource = parts[start];
        return parts.length > start + 2 ? resource + "/" + parts[start + 2] : resource;
    }

    /** Held so that the level sticks: MockWebServer logs every request at INFO, which costs more than answering it. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    public static void main(String[] args) throws Exception {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        int port = Integer.parseInt(args[0]);
        boolean indexed = !(args.length > 1 && "--scan".equals(args[1]));
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new CountingDispatcher(indexed), false);
        server.init(InetAddress.getByName("127.0.0.1"), port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::destroy));
        System.out.println("API server listening on http://127.0.0.1:" + port + (indexed ? " (indexed store)" : " (fabric8's scanning store)"));
        new CountDownLatch(1).await();
    }
}
