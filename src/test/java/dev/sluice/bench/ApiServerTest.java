package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The benchmark's API server answers as fabric8's CRUD mock does, with the indexed store and without it, and counts
 * only writes that are not the benchmark's own.
 */
class ApiServerTest {

    @ParameterizedTest(name = "indexed={0}")
    @ValueSource(booleans = {true, false})
    void answersAsTheCrudMockAndCountsForeignWrites(boolean indexed) throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ApiServer.CountingDispatcher(indexed), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        String url = "http://127.0.0.1:" + server.getPort();
        List<String> events = new CopyOnWriteArrayList<>();
        Config foreignConfig = new ConfigBuilder(Config.empty()).withMasterUrl(url).withUserAgent("controller").build();
        try (KubernetesClient bench = LoadDriver.client(url);
             KubernetesClient foreign = new KubernetesClientBuilder().withConfig(foreignConfig).build()) {
            LoadDriver.installCrds(bench, Path.of("helm/sluice/files/crds"));
            for (String ns : List.of("a", "b")) {
                bench.resource(BenchObjects.namespace(ns)).create();
                bench.configMaps().inNamespace(ns).resource(configMap("same", Map.of("team", ns))).create();
            }
            bench.configMaps().inNamespace("a").resource(configMap("other", Map.of("team", "x"))).create();
            var watch = foreign.configMaps().inNamespace("a").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, ConfigMap cm) {
                    events.add(action + " " + cm.getMetadata().getName());
                }

                @Override
                public void onClose(WatcherException e) {
                }
            });
            assertThat(bench.configMaps().inNamespace("a").withName("same").get().getMetadata().getLabels()).containsEntry("team", "a");
            assertThat(bench.configMaps().inNamespace("b").withName("same").get().getMetadata().getLabels()).containsEntry("team", "b");
            assertThat(bench.configMaps().inNamespace("a").withName("none").get()).isNull();
            assertThat(bench.configMaps().inAnyNamespace().list().getItems()).hasSize(3);
            assertThat(bench.configMaps().inNamespace("a").list().getItems()).hasSize(2);
            assertThat(bench.configMaps().inAnyNamespace().withLabel("team", "b").list().getItems()).hasSize(1);
            assertThat(bench.namespaces().withName("b").get()).isNotNull();
            assertThatThrownBy(() -> bench.configMaps().inNamespace("a").resource(configMap("same", Map.of())).create())
                    .isInstanceOf(KubernetesClientException.class).extracting(e -> ((KubernetesClientException) e).getCode())
                    .isEqualTo(409);

            foreign.configMaps().inNamespace("a").withName("same").edit(cm -> {
                cm.getMetadata().getLabels().put("team", "changed");
                return cm;
            });
            assertThat(bench.configMaps().inAnyNamespace().withLabel("team", "changed").list().getItems()).hasSize(1);
            assertThat(bench.configMaps().inNamespace("b").withName("same").get().getMetadata().getLabels()).containsEntry("team", "b");

            Workload w = BenchObjects.workload("a", dev.sluice.sim.KueueBenchmark.BASELINE.streams().get(0), 0, 0);
            Workload created = bench.resource(w).create();
            created.setStatus(new dev.sluice.api.v1beta2.WorkloadStatus());
            created.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.ConditionBuilder()
                    .withType("Finished").withStatus("True").withReason("Succeeded").withLastTransitionTime("2026-01-01T00:00:00Z").build()));
            foreign.resources(Workload.class).inNamespace("a").resource(created).updateStatus();
            Workload read = bench.resources(Workload.class).inNamespace("a").withName(w.getMetadata().getName()).get();
            assertThat(read.getStatus().getConditions()).extracting(c -> c.getType()).containsExactly("Finished");
            assertThat(bench.resources(Workload.class).inAnyNamespace().list().getItems()).hasSize(1);

            foreign.configMaps().inNamespace("a").withName("other").delete();
            await().atMost(Duration.ofSeconds(5)).until(() -> bench.configMaps().inNamespace("a").withName("other").get() == null);
            assertThat(bench.configMaps().inAnyNamespace().list().getItems()).hasSize(2);
            await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("MODIFIED same") && events.contains("DELETED other"));
            watch.close();

            String counts = LoadDriver.httpGet(url + "/bench/writes");
            // the foreign client: one edit (PUT or PATCH), one status update, one delete
            assertThat(counts).contains("\"total\": 3").contains("\"PUT workloads/status\": 1").contains("\"DELETE configmaps\": 1")
                    .contains("\"workloadStatusByReasons\": {\"Succeeded\": 1}");
        } finally {
            server.destroy();
        }
    }

    /** A status write is told by the condition reasons it sets, whether a JSON patch names them or writes them whole. */
    @org.junit.jupiter.api.Test
    void tellsAStatusWriteByTheReasonsItSets() {
        String admission = """
                [{"op": "replace", "path": "/metadata/resourceVersion", "value": "7"},
                 {"op": "replace", "path": "/status/conditions/0/reason", "value": "QuotaReserved"},
                 {"op": "add", "path": "/status/conditions/1", "value": {"type": "Admitted", "status": "True", "reason": "Admitted"}}]""";
        assertThat(ApiServer.reasonsIn(admission.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isEqualTo("Admitted+QuotaReserved");
        assertThat(ApiServer.reasonsIn("[{\"op\": \"remove\", \"path\": \"/status/admission\"}]".getBytes(
                java.nio.charset.StandardCharsets.UTF_8))).isEqualTo("none");
        assertThat(ApiServer.reasonsIn("not json".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo("unreadable");
    }

    /**
     * What each watch sees, with the shared watches and with fabric8's own: ADDED for what exists when it opens,
     * then ADDED, MODIFIED or DELETED as objects enter, change within or leave its selection, in order.
     */
    @ParameterizedTest(name = "indexed={0}")
    @ValueSource(booleans = {true, false})
    void watchesSeeWhatEntersChangesAndLeavesTheirSelection(boolean indexed) throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ApiServer.CountingDispatcher(indexed), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        String url = "http://127.0.0.1:" + server.getPort();
        try (KubernetesClient client = LoadDriver.client(url)) {
            for (String ns : List.of("a", "b")) {
                client.resource(BenchObjects.namespace(ns)).create();
            }
            client.configMaps().inNamespace("a").resource(configMap("x", Map.of("team", "red"))).create();
            client.configMaps().inNamespace("a").resource(configMap("y", Map.of("team", "blue"))).create();
            client.configMaps().inNamespace("b").resource(configMap("x", Map.of("team", "red"))).create();
            List<String> red = new CopyOnWriteArrayList<>();
            List<String> y = new CopyOnWriteArrayList<>();
            List<String> all = new CopyOnWriteArrayList<>();
            List<io.fabric8.kubernetes.client.Watch> watches = List.of(
                    client.configMaps().inNamespace("a").withLabel("team", "red").watch(recorder(red)),
                    client.configMaps().inNamespace("a").withName("y").watch(recorder(y)),
                    client.configMaps().inAnyNamespace().watch(recorder(all)));
            await().atMost(Duration.ofSeconds(5)).until(() -> red.size() == 1 && y.size() == 1 && all.size() == 3);

            client.configMaps().inNamespace("a").withName("y").edit(cm -> {
                cm.getMetadata().getLabels().put("team", "red"); // y enters the red selection
                return cm;
            });
            client.configMaps().inNamespace("a").withName("x").edit(cm -> {
                cm.getMetadata().getLabels().put("team", "green"); // x leaves it
                return cm;
            });
            client.configMaps().inNamespace("a").withName("y").delete();
            client.configMaps().inNamespace("b").resource(configMap("z", Map.of("team", "red"))).create();

            await().atMost(Duration.ofSeconds(5)).until(() -> all.size() == 7 && red.size() == 4 && y.size() == 3);
            assertThat(red).containsExactly("ADDED a/x red", "ADDED a/y red", "DELETED a/x red", "DELETED a/y red");
            assertThat(y).containsExactly("ADDED a/y blue", "MODIFIED a/y red", "DELETED a/y red");
            assertThat(all.subList(0, 3)).containsExactlyInAnyOrder("ADDED a/x red", "ADDED a/y blue", "ADDED b/x red");
            assertThat(all.subList(3, 7)).containsExactly("MODIFIED a/y red", "MODIFIED a/x green", "DELETED a/y red",
                    "ADDED b/z red");
            watches.forEach(io.fabric8.kubernetes.client.Watch::close);
        } finally {
            server.destroy();
        }
    }

    /**
     * The auditor judges changes in the order of their resource versions, so every event a watch of the benchmark's
     * server sees is newer than the one before: an opening watch's ADDED events in the order the objects were last
     * stored (not the store's), a watch from a resource version the same for what changed since, and a DELETED event
     * with the deletion's own resource version, as kube-apiserver gives it.
     */
    @org.junit.jupiter.api.Test
    void everyEventAWatchSeesIsNewerThanTheOneBefore() throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ApiServer.CountingDispatcher(true), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        String url = "http://127.0.0.1:" + server.getPort();
        try (KubernetesClient client = LoadDriver.client(url)) {
            client.resource(BenchObjects.namespace("a")).create();
            for (String name : List.of("x", "y", "z")) {
                client.configMaps().inNamespace("a").resource(configMap(name, Map.of("team", "red"))).create();
            }
            for (String name : List.of("y", "x")) { // stored last: x, then y, z in the store's order
                client.configMaps().inNamespace("a").withName(name).edit(cm -> {
                    cm.getMetadata().getLabels().put("team", "blue");
                    return cm;
                });
            }
            String yVersion = client.configMaps().inNamespace("a").withName("y").get().getMetadata().getResourceVersion();
            List<String> opened = new CopyOnWriteArrayList<>();
            List<Long> versions = new CopyOnWriteArrayList<>();
            Watcher<ConfigMap> ordered = new Watcher<>() {
                @Override
                public void eventReceived(Action action, ConfigMap cm) {
                    opened.add(action + " " + cm.getMetadata().getName());
                    versions.add(Long.parseLong(cm.getMetadata().getResourceVersion()));
                }

                @Override
                public void onClose(WatcherException e) {
                }
            };
            try (var watch = client.configMaps().inNamespace("a").watch(ordered)) {
                await().atMost(Duration.ofSeconds(5)).until(() -> opened.size() == 3);
                assertThat(opened).containsExactly("ADDED z", "ADDED y", "ADDED x");
                client.configMaps().inNamespace("a").withName("z").delete();
                client.configMaps().inNamespace("a").resource(configMap("w", Map.of("team", "red"))).create();
                await().atMost(Duration.ofSeconds(5)).until(() -> opened.size() == 5);
                assertThat(opened.subList(3, 5)).containsExactly("DELETED z", "ADDED w");
                assertThat(versions).isSorted().doesNotHaveDuplicates();
            }
            List<String> since = new CopyOnWriteArrayList<>();
            try (var watch = client.configMaps().inNamespace("a").withResourceVersion(yVersion).watch(recorder(since))) {
                await().atMost(Duration.ofSeconds(5)).until(() -> since.size() == 2);
                assertThat(since).containsExactly("ADDED a/x blue", "ADDED a/w red");
            }
        } finally {
            server.destroy();
        }
    }

    /** A watch closed by its client, or whose client vanished, is told nothing more. */
    @org.junit.jupiter.api.Test
    void watchesOfClientsThatLeftAreDropped() throws Exception {
        ApiServer.CountingDispatcher dispatcher = new ApiServer.CountingDispatcher(true);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        String url = "http://127.0.0.1:" + server.getPort();
        try (KubernetesClient client = LoadDriver.client(url)) {
            client.resource(BenchObjects.namespace("a")).create();
            List<String> events = new CopyOnWriteArrayList<>();
            var closed = client.configMaps().inNamespace("a").watch(recorder(events));
            WorkloadWatch vanishing = new WorkloadWatch(new WorkloadApi(url), e -> { }).start();
            await().atMost(Duration.ofSeconds(5)).until(() -> dispatcher.lean.openWatches() == 2);

            closed.close(); // a close frame
            vanishing.close(); // the connection dropped without one
            // a change or two later neither is written to any more
            for (int i = 0; i < 3 && dispatcher.lean.openWatches() > 0; i++) {
                client.configMaps().inNamespace("a").resource(configMap("c" + i, Map.of())).create();
                Thread.sleep(200);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> dispatcher.lean.openWatches() == 0);
        } finally {
            server.destroy();
        }
    }

    /** A write that changes nothing keeps the resource version; one that changes something gets a new one. */
    @ParameterizedTest(name = "indexed={0}")
    @ValueSource(booleans = {true, false})
    void onlyAChangeMovesTheResourceVersion(boolean indexed) throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ApiServer.CountingDispatcher(indexed), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        try (KubernetesClient client = LoadDriver.client("http://127.0.0.1:" + server.getPort())) {
            client.resource(BenchObjects.namespace("a")).create();
            ConfigMap created = client.configMaps().inNamespace("a").resource(configMap("x", Map.of("team", "red"))).create();
            ConfigMap same = client.configMaps().inNamespace("a").resource(created).update();
            assertThat(same.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
            same.getMetadata().getLabels().put("team", "blue");
            ConfigMap changed = client.configMaps().inNamespace("a").resource(same).update();
            assertThat(changed.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());
            assertThat(client.configMaps().inNamespace("a").withName("x").get().getMetadata().getResourceVersion())
                    .isEqualTo(changed.getMetadata().getResourceVersion());
        } finally {
            server.destroy();
        }
    }

    private static Watcher<ConfigMap> recorder(List<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap cm) {
                events.add(action + " " + cm.getMetadata().getNamespace() + "/" + cm.getMetadata().getName() + " "
                        + cm.getMetadata().getLabels().get("team"));
            }

            @Override
            public void onClose(WatcherException e) {
            }
        };
    }

    @org.junit.jupiter.api.Test
    void aWatchByNameIsReadFromItsFieldSelector() {
        assertThat(LeanCrudDispatcher.nameSelected("/api/v1/namespaces/a/configmaps?fieldSelector=metadata.name%3Dy&watch=true"))
                .isEqualTo("y");
        assertThat(LeanCrudDispatcher.nameSelected("/api/v1/configmaps?watch=true&labelSelector=team%3Dred")).isNull();
        assertThat(LeanCrudDispatcher.event("ADDED", "{\"kind\":\"ConfigMap\"}"))
                .isEqualTo("{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\"}}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/apis/kueue.x-k8s.io/v1beta2/namespaces/ns/workloads/w/status?x=1",
        "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq/status", "/api/v1/namespaces/ns/events"})
    void writesAreCountedByResource(String path) {
        assertThat(ApiServer.resourceOf(path)).isIn("workloads/status", "clusterqueues/status", "events");
    }

    @org.junit.jupiter.api.Test
    void requestsAreNarrowedToTheirResourceAndName() {
        assertThat(ApiServer.hint(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/ns/workloads/w/status", "")))
                .isEqualTo(new IndexedStore.Hint("workloads", "ns", "w"));
        assertThat(ApiServer.hint(request("GET", "/apis/kueue.x-k8s.io/v1beta2/workloads?labelSelector=a%3Db", "")))
                .isEqualTo(new IndexedStore.Hint("workloads", null));
        assertThat(ApiServer.hint(request("GET", "/api/v1/namespaces/ns/configmaps?watch=true&fieldSelector=metadata.name%3Dx", "")))
                .isEqualTo(new IndexedStore.Hint("configmaps", null));
        assertThat(ApiServer.hint(request("POST", "/api/v1/namespaces/ns/configmaps",
                "{\"kind\": \"ConfigMap\", \"data\": {\"name\": \"data\"}, \"metadata\": {\"labels\": {\"name\": \"label\"}, "
                        + "\"name\": \"real\"}}")))
                .isEqualTo(new IndexedStore.Hint("configmaps", "ns", "real"));
        assertThat(ApiServer.hint(request("POST", "/api/v1/namespaces/ns/configmaps", "{\"metadata\": {\"generateName\": \"x-\"}}")))
                .isEqualTo(new IndexedStore.Hint("configmaps", null, null));
        assertThat(ApiServer.hint(request("POST", "/api/v1/namespaces", "{\"metadata\": {\"name\": \"ns\"}}")))
                .isEqualTo(new IndexedStore.Hint("namespaces", null, "ns"));
        assertThat(ApiServer.hint(request("GET", "/api/v1/namespaces/ns", ""))).isEqualTo(new IndexedStore.Hint("namespaces", "ns"));
        assertThat(ApiServer.hint(request("GET", "/version", ""))).isNull();
    }

    private static io.fabric8.mockwebserver.http.RecordedRequest request(String method, String path, String body) {
        return new io.fabric8.mockwebserver.http.RecordedRequest("HTTP/1.1",
                io.fabric8.mockwebserver.dsl.HttpMethod.valueOf(method), path,
                io.fabric8.mockwebserver.http.Headers.builder().build(),
                new io.fabric8.mockwebserver.http.Buffer(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static ConfigMap configMap(String name, Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build();
    }
}
