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
 * By default the store is indexed ({@link IndexedStore}) and watches encode each change once
 * ({@link LeanCrudDispatcher}); {@code --scan} keeps fabric8's CRUD dispatcher unchanged: its store scans every stored
 * object on every request, and its watches parse and re-encode every change for every watcher.
 * <p>
 * {@code java ... dev.sluice.bench.ApiServer PORT [--scan]}
 */
public final class ApiServer {

    /** The benchmark's clients announce themselves with this user agent; their writes are not the controller's. */
    public static final String BENCH_AGENT = "sluice-bench";
    /**
     * {@code POST {"count": N, "namespaces": [...]}}: stores N finished Workloads of the history scenario straight
     * into the store ({@link History#storeInto}); answers how many and how long it took.
     */
    static final String HISTORY_PATH = "/bench/history";
    static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private ApiServer() {
    }

    /** Counts controller writes; everything else goes to the CRUD dispatcher. */
    static final class CountingDispatcher extends KubernetesMixedDispatcher {
        private final Map<String, LongAdder> writes = new ConcurrentHashMap<>();
        /** The controller's Workload status writes by the condition reasons they write: what each write was for. */
        private final Map<String, LongAdder> byReasons = new ConcurrentHashMap<>();

        private final boolean indexed;
        /** The CRUD dispatcher when indexed (null: fabric8's own). */
        final LeanCrudDispatcher lean;

        CountingDispatcher(boolean indexed) {
            super(new HashMap<>());
            this.indexed = indexed;
            this.lean = indexed ? installIndexedStore(this) : null;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if (path.startsWith("/bench/writes")) {
                return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(counts());
            }
            if (path.startsWith(HISTORY_PATH) && "POST".equals(request.getMethod())) {
                return storeHistory(request);
            }
            String agent = request.getHeader("User-Agent");
            if (WRITES.contains(request.getMethod()) && (agent == null || !agent.startsWith(BENCH_AGENT))) {
                String resource = resourceOf(path);
                writes.computeIfAbsent(request.getMethod() + " " + resource, k -> new LongAdder()).increment();
                if ("workloads/status".equals(resource)) {
                    byReasons.computeIfAbsent(reasonsIn(request.getBody() == null ? null : request.getBody().getBytes()),
                            k -> new LongAdder()).increment();
                }
            }
            if (!indexed) {
                return super.dispatch(request);
            }
            return IndexedStore.narrow(hint(request), () -> super.dispatch(request));
        }

        private MockResponse storeHistory(RecordedRequest request) {
            if (lean == null) {
                return new MockResponse().setResponseCode(501).setBody("fabric8's scanning store (--scan) stores no history itself");
            }
            try {
                var body = HISTORY_JSON.readTree(request.getBody().getBytes());
                int count = body.path("count").asInt(-1);
                java.util.List<String> namespaces = new java.util.ArrayList<>();
                body.path("namespaces").forEach(n -> namespaces.add(n.asText()));
                if (count < 0 || namespaces.isEmpty()) {
                    return new MockResponse().setResponseCode(400).setBody("POST " + HISTORY_PATH
                            + " wants {\"count\": N, \"namespaces\": [\"a\", ...]}, got " + body);
                }
                long start = System.nanoTime();
                History.storeInto(lean, namespaces, count);
                return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                        .setBody("{\"stored\": " + count + ", \"seconds\": " + (System.nanoTime() - start) / 1e9 + "}");
            } catch (java.io.IOException | RuntimeException e) {
                return new MockResponse().setResponseCode(400).setBody("cannot store the history: " + e);
            }
        }

        String counts() {
            Map<String, Long> sorted = new TreeMap<>();
            writes.forEach((k, v) -> sorted.put(k, v.sum()));
            long total = sorted.values().stream().mapToLong(Long::longValue).sum();
            StringBuilder sb = new StringBuilder("{\"total\": ").append(total).append(", \"workloadStatusByReasons\": ");
            Map<String, Long> reasons = new TreeMap<>();
            byReasons.forEach((k, v) -> reasons.put(k, v.sum()));
            append(sb, reasons);
            sb.append(", \"byKind\": ");
            append(sb, sorted);
            return sb.append("}").toString();
        }

        private static void append(StringBuilder sb, Map<String, Long> counts) {
            sb.append('{');
            String sep = "";
            for (var e : counts.entrySet()) {
                sb.append(sep).append('"').append(e.getKey()).append("\": ").append(e.getValue());
                sep = ", ";
            }
            sb.append('}');
        }
    }

    /** The store's scans narrowed to the resource, namespace and object a request names (POST: the name in its body). */
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
        String namespace = null;
        String name = null;
        if (parts.length > start && "namespaces".equals(parts[start]) && parts.length > start + 2) {
            namespace = parts[start + 1];
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
            name = nameInBody(request.getBody() == null ? null : request.getBody().getBytes()); // getBytes does not consume
        }
        return new IndexedStore.Hint(plural, name == null ? null : namespace, name);
    }

    private static final com.fasterxml.jackson.core.JsonFactory JSON = new com.fasterxml.jackson.core.JsonFactory();
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * The condition reasons a status write sets, sorted and joined with "+" (e.g. "Admitted+QuotaReserved" for an
     * admission): in a JSON patch, the value of a {@code .../reason} path or the reason of a condition object written
     * whole; "none" when it writes none.
     */
    static String reasonsIn(byte[] body) {
        java.util.TreeSet<String> reasons = new java.util.TreeSet<>();
        if (body != null && body.length > 0) {
            try {
                collectReasons(MAPPER.readTree(body), reasons);
            } catch (java.io.IOException e) {
                return "unreadable";
            }
        }
        return reasons.isEmpty() ? "none" : String.join("+", reasons);
    }

    private static void collectReasons(com.fasterxml.jackson.databind.JsonNode node, java.util.Set<String> reasons) {
        if (node.isObject()) {
            var reason = node.get("reason");
            if (reason != null && reason.isTextual()) {
                reasons.add(reason.asText());
            }
            var path = node.get("path");
            var value = node.get("value");
            if (path != null && path.asText().endsWith("/reason") && value != null && value.isTextual()) {
                reasons.add(value.asText());
            }
        }
        node.forEach(child -> collectReasons(child, reasons));
    }
    private static final com.fasterxml.jackson.databind.ObjectMapper HISTORY_JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** metadata.name of a JSON object, read up to there and no further; null when there is none. */
    static String nameInBody(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try (var p = JSON.createParser(body)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String field = p.currentName();
                var t = p.nextToken();
                if (!"metadata".equals(field) || t != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                    String m = p.currentName();
                    var v = p.nextToken();
                    if ("name".equals(m)) {
                        return v == com.fasterxml.jackson.core.JsonToken.VALUE_STRING ? p.getText() : null;
                    }
                    p.skipChildren();
                }
                return null;
            }
            return null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Puts {@link LeanCrudDispatcher} over an {@link IndexedStore} in place of the mixed dispatcher's CRUD dispatcher
     * (fabric8's scanning store in a synchronized LinkedHashMap, and watches that encode every event per watcher).
     */
    static LeanCrudDispatcher installIndexedStore(KubernetesMixedDispatcher mixed) {
        try {
            IndexedStore store = new IndexedStore();
            LeanCrudDispatcher crud = new LeanCrudDispatcher(store);
            java.lang.reflect.Field map = io.fabric8.mockwebserver.crud.CrudDispatcher.class.getDeclaredField("map");
            map.setAccessible(true);
            map.set(crud, store);
            java.lang.reflect.Field field = KubernetesMixedDispatcher.class.getDeclaredField("kubernetesCrudDispatcher");
            field.setAccessible(true);
            field.set(mixed, crud);
            return crud;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot index the mock server's store (fabric8 changed?): " + e, e);
        }
    }

    /** {@code workloads/status} from {@code /apis/kueue.x-k8s.io/v1beta2/namespaces/ns/workloads/name/status?x}. */
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

    /**
     * MockWebServer keeps every request it answered (bodies included) for tests to take; over a benchmark run that is
     * hundreds of thousands of requests held for nothing, which the collector then copies again and again.
     */
    static void forgetRequests(MockWebServer mock) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                mock.reset();
            }
        }, "forget-requests");
        t.setDaemon(true);
        t.start();
    }

    public static void main(String[] args) throws Exception {
        BenchLogging.quiet();
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        int port = Integer.parseInt(args[0]);
        boolean indexed = !(args.length > 1 && "--scan".equals(args[1]));
        MockWebServer mock = new MockWebServer();
        KubernetesMockServer server = new KubernetesMockServer(new Context(), mock, new HashMap<>(),
                new CountingDispatcher(indexed), false);
        server.init(InetAddress.getByName("127.0.0.1"), port);
        forgetRequests(mock);
        Runtime.getRuntime().addShutdownHook(new Thread(server::destroy));
        System.out.println("API server listening on http://127.0.0.1:" + port + (indexed ? " (indexed store)" : " (fabric8's scanning store)"));
        new CountDownLatch(1).await();
    }
}
