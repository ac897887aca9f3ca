package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.AdmissionFairSharingStatus;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.CohortStatus;
import dev.sluice.api.v1beta2.FairSharingStatus;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueFairSharingStatus;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * With fair sharing and admission fair sharing off (the defaults), shares and usage left in status by an earlier
 * run with them on (here written straight into status, as a restart with the feature switched off would find them):
 * ClusterQueue and Cohort status.fairSharing are removed once, as Kueue clears them; the LocalQueue's
 * status.fairSharing.admissionFairSharingStatus is left as it is, as Kueue v0.19 leaves it (a leader with the feature
 * on again resumes from it). Level-triggered: after the one write nothing is written again.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class FairSharingOffStatusTest {

    static final String NS = "fs-off";

    @Inject
    KubernetesClient client;

    @Test
    void staleSharesAreRemovedOnceAndRecordedUsageIsKept() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("off-flavor", "{}")).create();
        client.resource(CohortTreeControllerTest.cohort("off-pool", null)).create();
        ClusterQueue cq = Queues.cpuQueue("off-cq", "off-flavor", "2", "{}");
        cq.getSpec().setCohortName("off-pool");
        client.resource(cq).create();
        client.resource(Queues.localQueue(NS, "off-lq", "off-cq")).create();
        cluster.awaitLocalQueue(NS, "off-lq", lq -> lq.getStatus() != null && lq.getStatus().getConditions() != null
                && !lq.getStatus().getConditions().isEmpty());
        cluster.awaitClusterQueue("off-cq", q -> q.getStatus() != null && q.getStatus().getConditions() != null
                && !q.getStatus().getConditions().isEmpty());

        // what a run with the features on left behind
        FairSharingStatus share = new FairSharingStatus();
        share.setWeightedShare(250L);
        client.resources(ClusterQueue.class).withName("off-cq").editStatus(q -> {
            q.getStatus().setFairSharing(share);
            return q;
        });
        client.resources(Cohort.class).withName("off-pool").editStatus(c -> {
            c.setStatus(c.getStatus() == null ? new CohortStatus() : c.getStatus());
            c.getStatus().setFairSharing(share);
            return c;
        });
        AdmissionFairSharingStatus usage = new AdmissionFairSharingStatus();
        usage.setConsumedResources(Map.of("cpu", new Quantity("1500m")));
        usage.setLastUpdate("2026-01-01T00:00:00Z");
        LocalQueueFairSharingStatus lqFairSharing = new LocalQueueFairSharingStatus();
        lqFairSharing.setAdmissionFairSharingStatus(usage);
        client.resources(LocalQueue.class).inNamespace(NS).withName("off-lq").editStatus(lq -> {
            lq.getStatus().setFairSharing(lqFairSharing);
            return lq;
        });

        ClusterQueue cleared = cluster.awaitClusterQueue("off-cq", q -> q.getStatus().getFairSharing() == null);
        Cohort cohort = Awaitility.await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(() -> client.resources(Cohort.class).withName("off-pool").get(),
                        c -> c.getStatus() == null || c.getStatus().getFairSharing() == null);
        LocalQueue lq = client.resources(LocalQueue.class).inNamespace(NS).withName("off-lq").get();
        assertThat(lq.getStatus().getFairSharing().getAdmissionFairSharingStatus().getConsumedResources())
                .as("Kueue leaves the recorded usage").containsEntry("cpu", new Quantity("1500m"));
        assertThat(lq.getStatus().getConditions()).as("the rest of the status is kept").isNotEmpty();

        // once: nothing is written after the clearing
        Thread.sleep(2500);
        assertUnchanged(() -> client.resources(LocalQueue.class).inNamespace(NS).withName("off-lq").get()
                .getMetadata().getResourceVersion(), lq.getMetadata().getResourceVersion());
        assertUnchanged(() -> client.resources(ClusterQueue.class).withName("off-cq").get().getMetadata()
                .getResourceVersion(), cleared.getMetadata().getResourceVersion());
        assertUnchanged(() -> client.resources(Cohort.class).withName("off-pool").get().getMetadata()
                .getResourceVersion(), cohort.getMetadata().getResourceVersion());
    }

    private static void assertUnchanged(Supplier<String> now, String before) {
        assertThat(now.get()).isEqualTo(before);
    }
}
