package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault proxy in front of fabric8's mock API server (CRUD mode), both in this JVM. */
class FaultProxyTest {

    private static final String CONFIGMAPS = "/api/v1/namespaces/ns/configmaps";

    private KubernetesMockServer upstream;
    private FaultProxy proxy;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void upstream() throws Exception {
        upstream = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesMixedDispatcher(new HashMap<>()), false);
        upstream.init(InetAddress.getByName("127.0.0.1"), 0);
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        upstream.destroy();
    }

    private int start(FaultProxy.Plan plan) throws Exception {
        proxy = new FaultProxy(upstream.getPort(), plan);
        return proxy.start(0);
    }

    private KubernetesClient upstreamClient() {
        return LoadDriver.client("http://127.0.0.1:" + upstream.getPort());
    }

    private HttpResponse<String> post(int port, String name) throws Exception {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\"}}";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + CONFIGMAPS))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutFaultsEverythingPassesThrough() throws Exception {
        int port = start(FaultProxy.Plan.NONE);
        try (KubernetesClient client = LoadDriver.client("http://127.0.0.1:" + port)) {
            client.configMaps().inNamespace("ns").resource(configMap("a")).create();
            client.configMaps().inNamespace("ns").withName("a").edit(cm -> {
                cm.setData(java.util.Map.of("k", "v"));
                return cm;
            });
            assertThat(client.configMaps().inNamespace("ns").list().getItems()).hasSize(1);
        }
        try (KubernetesClient direct = upstreamClient()) {
            assertThat(direct.configMaps().inNamespace("ns").withName("a").get().getData()).containsEntry("k", "v");
        }
        assertThat(proxy.counts().faults()).isZero();
        assertThat(proxy.counts().writes()).isEqualTo(2);
    }

    @Test
    void everyWriteCanFailInEachWayAndReadsNever() throws Exception {
        int port = start(new FaultProxy.Plan(1.0, 0, 0, 0, 42));
        Set<Integer> codes = new HashSet<>();
        int applied = 0;
        for (int i = 0; i < 40; i++) {
            HttpResponse<String> r = post(port, "cm-" + i);
            codes.add(r.statusCode());
            assertThat(r.statusCode()).isIn(409, 500, 429);
            assertThat(r.body()).contains("\"kind\":\"Status\"").contains("injected by the bench fault proxy");
            if (r.statusCode() == 429) {
                assertThat(r.headers().firstValue("Retry-After")).contains("1");
            }
        }
        try (KubernetesClient direct = upstreamClient()) {
            applied = direct.configMaps().inNamespace("ns").list().getItems().size();
        }
        FaultProxy.Counts c = proxy.counts();
        assertThat(codes).containsExactlyInAnyOrder(409, 500, 429);
        assertThat(c.conflicts() + c.serverErrors() + c.throttled() + c.serverErrorsAfterApply()).isEqualTo(40);
        assertThat(c.conflicts()).isPositive();
        assertThat(c.throttled()).isPositive();
        // only a 500 after apply lets the write through
        assertThat(c.serverErrorsAfterApply()).isPositive().isEqualTo(applied);
        HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + CONFIGMAPS)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("\"items\"");
    }

    @Test
    void aShareOfWritesFails() throws Exception {
        int port = start(new FaultProxy.Plan(0.25, 0, 0, 0, 7));
        int failed = 0;
        for (int i = 0; i < 200; i++) {
            if (post(port, "cm-" + i).statusCode() != 201) {
                failed++;
            }
        }
        assertThat(failed).isBetween(25, 80);
        assertThat(proxy.counts().writes()).isEqualTo(200);
    }

    @Test
    void latencyIsAddedToRequests() throws Exception {
        int port = start(new FaultProxy.Plan(0, 50, 0, 0, 3));
        for (int i = 0; i < 5; i++) {
            assertThat(post(port, "cm-" + i).statusCode()).isEqualTo(201);
        }
        assertThat(proxy.counts().delayed()).isPositive();
    }

    @Test
    void anHttpWatchStreamIsCut() throws Exception {
        // the mock server watches only over WebSockets: an upstream that streams forever stands in for an HTTP watch
        com.sun.net.httpserver.HttpServer streaming = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        streaming.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                for (int i = 0; i < 200; i++) {
                    out.write("{\"type\":\"BOOKMARK\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(50);
                }
            } catch (java.io.IOException | InterruptedException gone) {
                // the proxy cut it
            }
        });
        streaming.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        streaming.start();
        try {
            proxy = new FaultProxy(streaming.getAddress().getPort(), new FaultProxy.Plan(0, 0, 200, 300, 5));
            int port = proxy.start(0);
            long t0 = System.nanoTime();
            HttpResponse<InputStream> watch = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + CONFIGMAPS + "?watch=true")).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertThat(watch.statusCode()).isEqualTo(200);
            int read = 0;
            try (InputStream in = watch.body()) {
                while (in.read() >= 0) {
                    read++;
                }
            } catch (java.io.IOException cut) {
                // an abrupt close may also show as an error
            }
            assertThat(read).isPositive();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            assertThat(proxy.counts().watchesCut()).isEqualTo(1);
        } finally {
            streaming.stop(0);
        }
    }

    @Test
    void aWebSocketWatchIsCutAndTheClientWatchesOnAfterReconnecting() throws Exception {
        int port = start(new FaultProxy.Plan(0, 0, 300, 400, 9));
        List<String> seen = new CopyOnWriteArrayList<>();
        try (KubernetesClient client = LoadDriver.client("http://127.0.0.1:" + port);
             KubernetesClient direct = upstreamClient();
             var w = client.configMaps().inNamespace("ns").watch(new Watcher<>() {
                 @Override
                 public void eventReceived(Action action, ConfigMap cm) {
                     seen.add(action + " " + cm.getMetadata().getName());
                 }

                 @Override
                 public void onClose(WatcherException e) {
                 }
             })) {
            await().atMost(Duration.ofSeconds(10)).until(() -> proxy.counts().watchesCut() >= 1);
            direct.configMaps().inNamespace("ns").resource(configMap("after-cut")).create();
            await().atMost(Duration.ofSeconds(15)).until(() -> seen.contains("ADDED after-cut"));
        }
    }

    /**
     * The API server sends a watch's first events (here fabric8's mock: every stored object; a real one from a resource
     * version: what changed since) as soon as it opens, before the proxy has its side to the client: none may be lost.
     * Before, they were dropped while the proxy waited for the client's side, so a watch reopened after a cut missed
     * the changes made while it was down, and the controller never saw them.
     */
    @Test
    void aWebSocketWatchGetsTheEventsSentAsItOpens() throws Exception {
        int port = start(new FaultProxy.Plan(0, 100, 0, 0, 9)); // the client's side opens up to 100 ms after the server's
        int stored = 50;
        try (KubernetesClient direct = upstreamClient()) {
            for (int i = 0; i < stored; i++) {
                direct.configMaps().inNamespace("ns").resource(configMap("stored-" + i)).create();
            }
        }
        for (int round = 0; round < 5; round++) {
            Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            try (KubernetesClient client = LoadDriver.client("http://127.0.0.1:" + port);
                 var w = client.configMaps().inNamespace("ns").watch(new Watcher<>() {
                     @Override
                     public void eventReceived(Action action, ConfigMap cm) {
                         seen.add(cm.getMetadata().getName());
                     }

                     @Override
                     public void onClose(WatcherException e) {
                     }
                 })) {
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(seen).hasSize(stored));
            }
        }
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().build();
    }
}
