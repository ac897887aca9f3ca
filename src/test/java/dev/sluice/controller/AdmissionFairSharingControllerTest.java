package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.AdmissionMode;
import dev.sluice.api.v1beta2.AdmissionScope;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Admission fair sharing end to end: ClusterQueue afs (1 cpu, admissionMode UsageBasedAdmissionFairSharing) fed by
 * LocalQueues heavy and light. heavy's first workload is admitted, so heavy has usage; then heavy queues an older
 * workload and light a newer one, both 1 cpu. When the quota frees, light's (newer) workload goes first: heavy, with
 * the recent usage, yields. Without admission fair sharing the older one would be admitted.
 */
@QuarkusTest
@TestProfile(AdmissionFairSharingProfile.class)
@WithKubernetesTestServer(setup = ApiServerRules.class)
class AdmissionFairSharingControllerTest {

    static final String NS = "afs";

    @Inject
    KubernetesClient client;

    @Test
    void theLocalQueueWithRecentUsageYields() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("afs-flavor", "{}")).create();
        ClusterQueue cq = Queues.yaml(ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: afs}
                spec:
                  namespaceSelector: {}
                  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: afs-flavor
                      resources:
                      - {name: cpu, nominalQuota: "1"}
                """);
        client.resource(cq).create();
        assertThat(client.resources(ClusterQueue.class).withName("afs").get().getSpec().getAdmissionScope().getAdmissionMode())
                .as("the API server keeps the field").isEqualTo(AdmissionMode.UsageBasedAdmissionFairSharing);
        client.resource(Queues.localQueue(NS, "heavy", "afs")).create();
        client.resource(Queues.localQueue(NS, "light", "afs")).create();

        Workload first = cluster.awaitWorkload(client.resource(workload("heavy-1", "heavy")).create(), Cluster::admitted);
        Thread.sleep(500); // a few sampling intervals: heavy's usage is sampled while heavy-1 runs
        Workload older = client.resource(workload("heavy-2", "heavy")).create();
        Thread.sleep(1100); // creation timestamps are whole seconds: heavy-2 is strictly older
        Workload newer = client.resource(workload("light-1", "light")).create();
        cluster.awaitWorkload(older, AdmissionFairSharingControllerTest::waiting);
        cluster.awaitWorkload(newer, AdmissionFairSharingControllerTest::waiting);

        client.resource(first).delete();
        cluster.awaitWorkload(newer, Cluster::admitted);
        Thread.sleep(500);
        Workload still = client.resources(Workload.class).inNamespace(NS).withName("heavy-2").get();
        assertThat(Cluster.admitted(still)).as("heavy-2 is older but its LocalQueue has the recent usage").isFalse();

        // status.fairSharing.admissionFairSharingStatus: heavy consumed cpu (decayed), light's newer admission too
        var heavy = cluster.awaitLocalQueue(NS, "heavy", lq -> lq.getStatus() != null && lq.getStatus().getFairSharing() != null
                && lq.getStatus().getFairSharing().getAdmissionFairSharingStatus() != null
                && lq.getStatus().getFairSharing().getAdmissionFairSharingStatus().getConsumedResources().containsKey("cpu"));
        var status = heavy.getStatus().getFairSharing().getAdmissionFairSharingStatus();
        assertThat(status.getConsumedResources().get("cpu").getNumericalAmount()).isPositive();
        assertThat(java.time.Instant.parse(status.getLastUpdate())).isAfter(java.time.Instant.now().minusSeconds(60));

        // kueue_local_queue_admission_fair_sharing_usage{name,namespace,cluster_queue}: both LocalQueues, heavy > 0
        String heavySeries = "kueue_local_queue_admission_fair_sharing_usage{cluster_queue=\"afs\",name=\"heavy\","
                + "namespace=\"afs\",}";
        String scrape = org.awaitility.Awaitility.await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(Promtool::scrapeTextFormat, text -> text.contains(heavySeries));
        assertThat(Promtool.sample(scrape, heavySeries.replace(",}", "}"))).isPositive();
        assertThat(scrape).contains("kueue_local_queue_admission_fair_sharing_usage{cluster_queue=\"afs\","
                + "name=\"light\",namespace=\"afs\",}");
        Promtool.assertValid(scrape);
    }

    static boolean waiting(Workload wl) {
        var c = Cluster.condition(wl, "QuotaReserved");
        return c != null && "False".equals(c.getStatus());
    }

    static Workload workload(String name, String queue) {
        return Queues.bareWorkload(NS, name, queue, "1");
    }
}
