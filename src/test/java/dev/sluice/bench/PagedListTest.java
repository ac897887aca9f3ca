package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's API server pages a LIST with a limit as kube-apiserver does, and a watch from a resource version
 * sends what changed since, not everything stored: fabric8's mock answered every object at once and replayed them all
 * on every watch, so a controller's start-up against it read the whole history twice, the first time in one response.
 */
class PagedListTest {

    ApiServer.CountingDispatcher dispatcher;
    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void start() throws Exception {
        dispatcher = new ApiServer.CountingDispatcher(true);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        client = LoadDriver.client("http://127.0.0.1:" + server.getPort());
        for (String ns : List.of("a", "b", "c")) {
            client.resource(BenchObjects.namespace(ns)).create();
        }
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private void configMaps(int count) {
        for (int i = 0; i < count; i++) {
            String ns = List.of("a", "b", "c").get(i % 3);
            client.configMaps().inNamespace(ns).resource(configMap("cm-" + i, Map.of("team", i % 2 == 0 ? "even" : "odd")))
                    .create();
        }
    }

    /** Every page's names, following continue tokens until the last page. */
    private List<List<String>> pages(java.util.function.Function<ListOptionsBuilder, ConfigMapList> list, long limit) {
        List<List<String>> pages = new ArrayList<>();
        String token = null;
        String version = null;
        do {
            ConfigMapList page = list.apply(new ListOptionsBuilder().withLimit(limit).withContinue(token));
            assertThat(page.getItems()).hasSizeLessThanOrEqualTo((int) limit);
            if (version == null) {
                version = page.getMetadata().getResourceVersion();
            }
            assertThat(page.getMetadata().getResourceVersion()).as("every page of one LIST has the first's version")
                    .isEqualTo(version);
            pages.add(page.getItems().stream().map(c -> c.getMetadata().getNamespace() + "/" + c.getMetadata().getName())
                    .toList());
            token = page.getMetadata().getContinue();
        } while (token != null && pages.size() < 100);
        return pages;
    }

    @Test
    void aListWithALimitIsPagedInKeyOrderAndCoversEveryObjectOnce() {
        configMaps(23);
        List<List<String>> pages = pages(o -> client.configMaps().inAnyNamespace().list(o.build()), 5);
        assertThat(pages).hasSize(5);
        assertThat(pages.subList(0, 4)).allSatisfy(p -> assertThat(p).hasSize(5));
        List<String> all = pages.stream().flatMap(List::stream).toList();
        assertThat(all).hasSize(23).doesNotHaveDuplicates().isSorted();

        // within one namespace, and with a label selector: only what they select, still paged
        List<List<String>> inB = pages(o -> client.configMaps().inNamespace("b").list(o.build()), 3);
        assertThat(inB.stream().flatMap(List::stream)).hasSize(8).allMatch(k -> k.startsWith("b/"));
        assertThat(inB).hasSize(3);
        List<List<String>> odd = pages(o -> client.configMaps().inAnyNamespace().withLabel("team", "odd").list(o.build()), 4);
        assertThat(odd.stream().flatMap(List::stream)).hasSize(11).doesNotHaveDuplicates();

        // without a limit: everything at once, as before
        assertThat(client.configMaps().inAnyNamespace().list().getItems()).hasSize(23);
        assertThat(client.configMaps().inAnyNamespace().list().getMetadata().getContinue()).isNull();
    }

    @Test
    void thePagesOfOneListTogetherWalkTheResourceOnce() {
        configMaps(300);
        long before = dispatcher.lean.store().walked();
        List<List<String>> pages = pages(o -> client.configMaps().inAnyNamespace().list(o.build()), 10);
        assertThat(pages.stream().mapToInt(List::size).sum()).isEqualTo(300);
        // each page starts where the last stopped: 300 objects looked at, not 10 + 20 + ... + 300
        assertThat(dispatcher.lean.store().walked() - before).isEqualTo(300);
    }

    @Test
    void aTokenNotIssuedByTheServerIsABadRequest() {
        assertThatThrownBy(() -> client.configMaps().inAnyNamespace()
                .list(new ListOptionsBuilder().withLimit(5L).withContinue("bm90LW91cnM").build()))
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(400));
    }

    @Test
    void aWatchFromAResourceVersionSendsWhatChangedSinceNotEverythingStored() throws Exception {
        configMaps(6);
        String listed = client.configMaps().inAnyNamespace().list().getMetadata().getResourceVersion();
        client.configMaps().inNamespace("a").withName("cm-0").edit(cm -> {
            cm.getMetadata().getLabels().put("team", "changed");
            return cm;
        });
        List<String> fromList = new CopyOnWriteArrayList<>();
        List<String> fromStart = new CopyOnWriteArrayList<>();
        var w1 = client.configMaps().inAnyNamespace().watch(new ListOptionsBuilder().withResourceVersion(listed).build(),
                recorder(fromList));
        var w2 = client.configMaps().inAnyNamespace().watch(recorder(fromStart));
        client.configMaps().inNamespace("c").resource(configMap("late", Map.of())).create();
        await().atMost(Duration.ofSeconds(5)).until(() -> fromStart.size() == 7 && fromList.size() == 2);
        assertThat(fromList).containsExactly("ADDED a/cm-0", "ADDED c/late");
        assertThat(fromStart).hasSize(7).contains("ADDED c/cm-5");
        w1.close();
        w2.close();
    }

    /** An informer listing in pages of 4 gets every object and then the changes, once the list is done. */
    @Test
    void anInformerSyncsAcrossPagesAndWatchesAfter() throws Exception {
        configMaps(17);
        List<String> added = new CopyOnWriteArrayList<>();
        List<String> updated = new CopyOnWriteArrayList<>();
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inAnyNamespace().withLimit(4L).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                added.add(cm.getMetadata().getName());
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap cm) {
                updated.add(cm.getMetadata().getName());
            }

            @Override
            public void onDelete(ConfigMap cm, boolean unknown) {
            }
        });
        try {
            informer.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(informer.getStore().list()).hasSize(17);
            client.configMaps().inNamespace("b").withName("cm-1").edit(cm -> {
                cm.getMetadata().getLabels().put("team", "changed");
                return cm;
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> updated.contains("cm-1"));
            // the watch after the list replayed nothing that was listed
            assertThat(added).hasSize(17).doesNotHaveDuplicates();
            assertThat(updated).containsExactly("cm-1");
        } finally {
            informer.stop();
        }
    }

    private static Watcher<ConfigMap> recorder(List<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap cm) {
                events.add(action + " " + cm.getMetadata().getNamespace() + "/" + cm.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException e) {
            }
        };
    }

    private static ConfigMap configMap(String name, Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build();
    }
}
