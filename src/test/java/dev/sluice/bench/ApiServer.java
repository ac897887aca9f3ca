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
 * {@code java ... dev.sluice.bench.ApiServer PORT}
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

        CountingDispatcher() {
            super(new HashMap<>());
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
            return super.dispatch(request);
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

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new CountingDispatcher(), false);
        server.init(InetAddress.getByName("127.0.0.1"), port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::destroy));
        System.out.println("API server listening on http://127.0.0.1:" + port);
        new CountDownLatch(1).await();
    }
}
