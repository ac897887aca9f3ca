package dev.sluice.app;

import dev.sluice.apiserver.ApiServerRules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.ClusterQueueSpec;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueSpec;
import dev.sluice.controller.conditions.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class LocalQueueActiveTest {

    @Inject
    KubernetesClient client;

    @Test
    void activeFollowsTheClusterQueue() {
        LocalQueue lq = new LocalQueue();
        lq.setMetadata(new ObjectMetaBuilder().withName("team-a").withNamespace("default").build());
        lq.setSpec(new LocalQueueSpec());
        lq.getSpec().setClusterQueue("cq-a");
        client.resource(lq).create();

        Condition inactive = awaitActive(false);
        assertThat(inactive.getReason()).isEqualTo("ClusterQueueDoesNotExist");
        assertThat(inactive.getMessage()).contains("cq-a");

        ClusterQueue cq = new ClusterQueue();
        cq.setMetadata(new ObjectMetaBuilder().withName("cq-a").build());
        cq.setSpec(new ClusterQueueSpec());
        client.resource(cq).create();
        assertThat(awaitActive(true).getReason()).isEqualTo("Ready");

        client.resource(cq).delete();
        assertThat(awaitActive(false).getReason()).isEqualTo("ClusterQueueDoesNotExist");
    }

    private Condition awaitActive(boolean status) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> {
            LocalQueue current = client.resources(LocalQueue.class).inNamespace("default").withName("team-a").get();
            Condition c = current.getStatus() == null ? null : Conditions.find(current.getStatus().getConditions(), "Active");
            return c != null && c.getStatus().equals(status ? "True" : "False") ? c : null;
        }, c -> c != null);
    }
}
