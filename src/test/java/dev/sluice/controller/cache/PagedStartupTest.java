package dev.sluice.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.Queues;
import dev.sluice.jobs.BatchJobKind;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Start-up at any size: every informer's initial LIST is paged (limit, then continue until the last page), against a
 * test API server that pages as kube-apiserver does ({@link ApiServerRules}: the plain mock would answer everything at
 * once and hide a client that stops after the first page). More objects than one page of each kind.
 */
@EnableKubernetesMockClient(crud = true)
class PagedStartupTest {

    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/workloads";
    static final String LOCAL_QUEUES = "/apis/kueue.x-k8s.io/v1beta2/localqueues";
    static final String JOBS = "/apis/batch/v1/jobs";
    static final List<String> NAMESPACES = List.of("team-a", "team-b", "team-c");

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void pagingServer() {
        ApiServerRules.install(server);
    }

    static Workload workload(String namespace, String name) {
        return Serialization.unmarshal("""
                {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"queueName": "lq", "podSets": [{"name": "main", "count": 1,
                   "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}}
                """.formatted(name, namespace), Workload.class);
    }

    @Test
    void everyObjectOfEveryKindIsListedAcrossPagesAndWatchedAfter() throws Exception {
        int workloads = 23;
        for (String ns : NAMESPACES) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .create();
        }
        for (int i = 0; i < workloads; i++) {
            client.resource(workload(NAMESPACES.get(i % 3), "wl-" + i)).create();
        }
        for (int i = 0; i < 11; i++) {
            LocalQueue lq = Queues.localQueue(NAMESPACES.get(i % 3), "lq-" + i, "cq");
            client.resource(lq).create();
        }
        for (int i = 0; i < 12; i++) {
            client.batch().v1().jobs().inNamespace(NAMESPACES.get(i % 3)).resource(new JobBuilder().withNewMetadata()
                    .withName("job-" + i).endMetadata().withNewSpec().withSuspend(true).withNewTemplate().withNewSpec()
                    .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().endTemplate().endSpec()
                    .build()).create();
        }
        Set<Ref> handedOver = ConcurrentHashMap.newKeySet();
        int pagesBefore = ApiServerRules.listPages(WORKLOADS);
        int continuedBefore = ApiServerRules.continuedListPages(WORKLOADS);
        try (ClusterCache cache = new ClusterCache(client, new JobKinds(List.of(new BatchJobKind())), handedOver::add, 5)) {
            cache.startAndSync(30);

            assertThat(names(cache.list(cache.workloads).stream().map(w -> w.getMetadata().getName())))
                    .hasSize(workloads).contains("wl-0", "wl-22");
            assertThat(cache.list(cache.localQueues)).hasSize(11);
            assertThat(cache.list(cache.namespaces)).hasSize(3);
            List<GenericKubernetesResource> jobs = cache.list(cache.jobs.get(cache.jobs.keySet().iterator().next()));
            assertThat(jobs).hasSize(12);
            // 23 Workloads at 5 a page: 5 pages, 4 of them asked for with the token of the one before
            assertThat(ApiServerRules.listPages(WORKLOADS) - pagesBefore).isEqualTo(5);
            assertThat(ApiServerRules.continuedListPages(WORKLOADS) - continuedBefore).isEqualTo(4);
            assertThat(ApiServerRules.listPages(LOCAL_QUEUES)).isGreaterThanOrEqualTo(3);
            assertThat(ApiServerRules.continuedListPages(JOBS)).isGreaterThanOrEqualTo(2);
            // each object listed was handed to the engine loop
            assertThat(handedOver.stream().filter(r -> r.type().equals(Ref.WORKLOAD)).count()).isEqualTo(workloads);

            // the watch that follows the last page sees what comes next
            client.resource(workload("team-b", "wl-late")).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> ClusterCache.get(cache.workloads, "team-b", "wl-late") != null);
            assertThat(handedOver).contains(new Ref(Ref.WORKLOAD, "team-b", "wl-late"));
        }
    }

    @Test
    void aPageLargerThanTheCollectionIsOneRequest() throws Exception {
        client.resource(workload("team-a", "only")).create();
        int pagesBefore = ApiServerRules.listPages(WORKLOADS);
        try (ClusterCache cache = new ClusterCache(client, new JobKinds(List.of()), r -> { }, 500)) {
            cache.startAndSync(30);
            assertThat(cache.list(cache.workloads)).extracting(w -> w.getMetadata().getName()).containsExactly("only");
            assertThat(ApiServerRules.listPages(WORKLOADS) - pagesBefore).isEqualTo(1);
        }
    }

    @Test
    void aPageSizeBelowOneIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new ClusterCache(client, new JobKinds(List.of()), r -> { }, 0))
                .hasMessageContaining("sluice.controller.list-page-size").hasMessageContaining("not 0");
    }

    private static Set<String> names(java.util.stream.Stream<String> names) {
        return names.collect(Collectors.toSet());
    }
}
