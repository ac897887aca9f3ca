package dev.sluice.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Topology;
import dev.sluice.controller.Queues;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node view against a test API server: what it keeps of Nodes and pods, and which changes it hands the engine
 * loop (one {@link Ref#NODES} per batch of changes, none for a kubelet heartbeat).
 */
@EnableKubernetesMockClient(crud = true)
class NodeViewTest {

    KubernetesMockServer server;
    KubernetesClient client;
    final List<Ref> refs = new CopyOnWriteArrayList<>();
    NodeView view;

    @AfterEach
    void stop() {
        if (view != null) {
            view.close();
        }
    }

    static Node node(String name, String cpu) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(Map.of("rack", "r1")).endMetadata()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity(cpu)))
                .addNewCondition().withType("Ready").withStatus("True")
                .withLastHeartbeatTime(Instant.now().toString()).endCondition().endStatus().build();
    }

    @Test
    void listsNodesPodsAndTopologiesThenCountsOnlyChangesTasReads() throws Exception {
        client.resource(node("n1", "4")).create();
        client.resource(Queues.yaml(Topology.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Topology
                metadata: {name: t}
                spec: {levels: [{nodeLabel: rack}]}
                """)).create();
        client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName("p").endMetadata()
                .withNewSpec().withNodeName("n1").addNewContainer().withName("c").withNewResources()
                .withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
        view = new NodeView(client, refs::add, 500);
        view.startAndSync(30);
        assertThat(view.synced()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> refs.contains(NodeView.NODES));
        assertThat(refs).contains(new Ref(Ref.TOPOLOGY, null, "t"));
        assertThat(view.topology("t")).isNotNull();
        NodeView.Snapshot first = view.take();
        assertThat(first.nodes()).singleElement().satisfies(n -> {
            assertThat(n.name()).isEqualTo("n1");
            assertThat(n.allocatable()).containsEntry("cpu", 4000L);
            assertThat(n.ready()).isTrue();
        });
        assertThat(first.nonTasUsage()).isEqualTo(Map.of("n1", Map.of("cpu", 1000L, "pods", 1000L)));
        refs.clear();

        long before = view.changes();
        client.nodes().withName("n1").edit(n -> {
            n.getStatus().getConditions().get(0).setLastHeartbeatTime(Instant.now().plusSeconds(10).toString());
            return n;
        });
        client.nodes().withName("n1").edit(n -> {
            n.getStatus().setAllocatable(Map.of("cpu", new Quantity("8")));
            return n;
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> view.changes() > before);
        assertThat(view.changes()).as("the heartbeat changed nothing TAS reads").isEqualTo(before + 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> refs.contains(NodeView.NODES));
        assertThat(view.take().nodes().get(0).allocatable()).containsEntry("cpu", 8000L);

        refs.clear();
        client.pods().inNamespace("ns").withName("p").delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> refs.contains(NodeView.NODES));
        assertThat(view.take().nonTasUsage()).isEmpty();
        assertThat(view.taken(s -> s.nonTasUsage().isEmpty())).isTrue();
    }

    @Test
    void aListThatIsRefusedIsNamedForTheReadinessCheck() throws Exception {
        dev.sluice.apiserver.ApiServerRules.install(server);
        dev.sluice.apiserver.ApiServerRules.deny("GET", "/api/v1/pods", 403, "Forbidden",
                "pods is forbidden: User \"system:serviceaccount:sluice-system:sluice\" cannot list resource \"pods\"");
        try {
            view = new NodeView(client, refs::add, 500);
            view.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> !view.listProblems().isEmpty());
            assertThat(view.synced()).isFalse();
            assertThat(view.listProblems()).singleElement().asString()
                    .startsWith("could not list Pods (v1): the API server answered HTTP 403").contains("cannot list");
            assertThat(refs).doesNotContain(NodeView.NODES);
        } finally {
            dev.sluice.apiserver.ApiServerRules.allow("GET", "/api/v1/pods");
        }
        await().atMost(Duration.ofSeconds(60)).until(view::synced);
        assertThat(view.listProblems()).isEmpty();
    }
}
