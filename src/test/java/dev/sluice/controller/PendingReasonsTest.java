package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.StopPolicy;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19's pending reasons (KEP 10852) as the controller writes them: QuotaReserved=False with the granular
 * reason and today's message, Admitted=False/NoReservation beside it, and the unadmitted-workload gauges by reason.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class PendingReasonsTest {
    static final String NS = "pending-reasons";
    static final String CQ = "pending-reasons-cq";

    @Inject
    KubernetesClient client;

    @Test
    void eachSituationGetsKueuesReasonAndTheGaugesCountTheWaitingOnes() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("pending-reasons-flavor", "{zone: a}")).create();
        client.resource(Queues.cpuQueue(CQ, "pending-reasons-flavor", "1", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", CQ)).create();

        cluster.awaitWorkload(client.resource(workload("first", "jobs", "1", "")).create(), Cluster::admitted);

        // the queue is full: waits for quota
        Workload second = cluster.awaitWorkload(client.resource(workload("second", "jobs", "1", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        assertThat(Cluster.condition(second, "QuotaReserved").getMessage()).contains("insufficient unused quota");
        assertThat(Cluster.isFalse(second, "Admitted", "NoReservation")).isTrue();
        assertThat(Cluster.condition(second, "Admitted").getMessage()).isEqualTo("The workload has no reservation");

        // more than the queue could ever hold
        Workload huge = cluster.awaitWorkload(client.resource(workload("huge", "jobs", "5", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "ExceedsMaxQuota"));
        assertThat(Cluster.isFalse(huge, "Admitted", "NoReservation")).isTrue();

        // no flavor matches its node selector
        Workload elsewhere = cluster.awaitWorkload(
                client.resource(workload("elsewhere", "jobs", "1", "nodeSelector: {zone: b}")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "NoMatchingFlavor"));
        assertThat(Cluster.isFalse(elsewhere, "Admitted", "NoReservation")).isTrue();

        // its LocalQueue does not exist
        Workload lost = cluster.awaitWorkload(client.resource(workload("lost", "no-such-queue", "1", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured"));
        assertThat(Cluster.condition(lost, "QuotaReserved").getMessage())
                .isEqualTo("LocalQueue no-such-queue doesn't exist");
        assertThat(Cluster.isFalse(lost, "Admitted", "NoReservation")).isTrue();

        // the gauges count the waiting workloads of the ClusterQueue by both reasons
        await().atMost(Cluster.TIMEOUT).untilAsserted(() -> {
            String metrics = ManagementEndpoint.get("/q/metrics").body();
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"WaitingForQuota\"} 1.0");
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"ExceedsMaxQuota\"} 1.0");
            assertThat(metrics).contains("kueue_local_queue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",name=\"jobs\",namespace=\"" + NS
                    + "\",reason=\"NoReservation\",underlying_cause=\"WaitingForQuota\"} 1.0");
        });

        // deactivated (spec.active: false): Deactivated before any other reason, and no longer counted as ExceedsMaxQuota
        client.resources(Workload.class).inNamespace(NS).withName("huge").edit(w -> {
            w.getSpec().setActive(false);
            return w;
        });
        Workload off = cluster.awaitWorkload(huge, w -> Cluster.isFalse(w, "QuotaReserved", "Deactivated"));
        assertThat(Cluster.isFalse(off, "Admitted", "NoReservation")).isTrue();
        await().atMost(Cluster.TIMEOUT).untilAsserted(() -> assertThat(ManagementEndpoint.get("/q/metrics").body())
                .doesNotContain("underlying_cause=\"ExceedsMaxQuota\""));

        // its LocalQueue is held: suspended
        client.resources(LocalQueue.class).inNamespace(NS).withName("jobs").edit(lq -> {
            lq.getSpec().setStopPolicy(StopPolicy.Hold);
            return lq;
        });
        cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "Suspended"));
    }

    private static Workload workload(String name, String queue, String cpu, String podSpecExtra) {
        return Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: %s, namespace: %s}
                spec:
                  queueName: %s
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        restartPolicy: Never
                        %s
                        containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "%s"}}}
                """.formatted(name, NS, queue, podSpecExtra, cpu));
    }
}
