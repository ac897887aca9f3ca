package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.engine.WorkloadKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: the informers list and watch on a Vert.x of their own. fabric8's informers parse every page and event,
 * and fill their stores, on their HTTP client's event loop; on Quarkus's loops a start-up with a long history held up
 * the health probes and the webhooks for up to 20 s at a time. Here every one of Quarkus's loops is blocked, and the
 * controller's cache must still see a Workload created meanwhile.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class InformersOwnThreadsTest {

    @Inject
    KubernetesClient client;

    @Inject
    Vertx quarkusVertx;

    @Inject
    ControllerRuntime runtime;

    @Test
    void theCacheSeesNewWorkloadsWhileEveryQuarkusEventLoopIsBlocked() throws Exception {
        await().atMost(Cluster.TIMEOUT).until(runtime::ready);
        // the test writes on a Vert.x of its own too, or it would be blocked with the controller
        try (KubernetesClient writer = new KubernetesClientBuilder().withConfig(client.getConfiguration())
                .withHttpClientFactory(new VertxHttpClientFactory()).build()) {
            try (BlockedEventLoops loops = BlockedEventLoops.block(quarkusVertx, Duration.ofSeconds(60))) {
                Workload wl = Serialization.unmarshal("""
                        {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                         "metadata": {"name": "while-blocked", "namespace": "informers-own-threads"},
                         "spec": {"queueName": "nowhere", "podSets": [{"name": "main", "count": 1,
                           "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}}
                        """, Workload.class);
                writer.resource(wl).create();
                WorkloadKey key = new WorkloadKey("informers-own-threads", "while-blocked");
                await().atMost(Duration.ofSeconds(20)).until(() -> runtime.read(live -> live.workload(key).isPresent())
                        .get(5, TimeUnit.SECONDS));
                assertThat(loops.stillBlocked()).as("Quarkus's loops were blocked the whole time").isTrue();
            }
            writer.resources(Workload.class).inNamespace("informers-own-threads").withName("while-blocked").delete();
        }
        await().atMost(Cluster.TIMEOUT).until(runtime::ready);
    }
}
