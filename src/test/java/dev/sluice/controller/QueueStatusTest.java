package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.StopPolicy;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.conditions.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** ClusterQueue Active reasons (missing flavor, stopped) and Workloads created directly, without a job. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class QueueStatusTest {

    static final String NS = "bare";
    static final String CQ = "status-cq";

    @Inject
    KubernetesClient client;

    @Test
    void activeReasonsAndBareWorkloads() {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.cpuQueue(CQ, "status-flavor", "1", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", CQ)).create();

        ClusterQueue missingFlavor = cluster.awaitClusterQueue(CQ, cq -> active(cq) != null && "False".equals(active(cq).getStatus()));
        assertThat(active(missingFlavor).getReason()).isEqualTo("FlavorNotFound");
        assertThat(active(missingFlavor).getMessage()).contains("status-flavor");
        Workload first = client.resource(bareWorkload("first")).create();
        Workload waiting = cluster.awaitWorkload(first, w -> Cluster.isFalse(w, "QuotaReserved", "Suspended"));
        assertThat(Cluster.condition(waiting, "QuotaReserved").getMessage()).isEqualTo("ClusterQueue status-cq is inactive");

        client.resource(Queues.flavor("status-flavor", "{}")).create();
        ClusterQueue ready = cluster.awaitClusterQueue(CQ, cq -> active(cq) != null && "True".equals(active(cq).getStatus()));
        assertThat(active(ready).getReason()).isEqualTo("Ready");
        Workload admitted = cluster.awaitWorkload(first, Cluster::admitted);
        assertThat(admitted.getStatus().getAdmission().getClusterQueue()).isEqualTo(CQ);
        cluster.awaitLocalQueue(NS, "jobs", lq -> lq.getStatus() != null
                && Integer.valueOf(1).equals(lq.getStatus().getAdmittedWorkloads())
                && lq.getStatus().getFlavorsUsage().get(0).getResources().get(0).getTotal().toString().equals("1"));

        client.resources(ClusterQueue.class).withName(CQ).edit(cq -> {
            cq.getSpec().setStopPolicy(StopPolicy.Hold);
            return cq;
        });
        ClusterQueue stopped = cluster.awaitClusterQueue(CQ, cq -> "Stopped".equals(active(cq).getReason()));
        assertThat(active(stopped).getStatus()).isEqualTo("False");
        var lq = cluster.awaitLocalQueue(NS, "jobs", q -> !Conditions.isTrue(q.getStatus().getConditions(), "Active"));
        assertThat(Conditions.find(lq.getStatus().getConditions(), "Active").getReason()).isEqualTo("ClusterQueueIsInactive");
        // Hold keeps what runs; a Workload finished by its owner releases the quota
        assertThat(Cluster.admitted(cluster.workloadOf(admitted))).isTrue();
        Workload second = client.resource(bareWorkload("second")).create();
        cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "Suspended"));
    }

    @Test
    void bareWorkloadsPreemptByPriority() {
        Cluster cluster = new Cluster(client);
        cluster.namespace("bare-preempt");
        client.resource(Queues.flavor("bare-flavor", "{}")).create();
        ClusterQueue cq = Queues.cpuQueue("bare-preempt-cq", "bare-flavor", "1", "{}");
        cq.getSpec().setPreemption(new dev.sluice.api.v1beta2.ClusterQueuePreemption());
        cq.getSpec().getPreemption().setWithinClusterQueue(dev.sluice.api.v1beta2.WithinClusterQueue.LowerPriority);
        client.resource(cq).create();
        client.resource(Queues.localQueue("bare-preempt", "jobs", "bare-preempt-cq")).create();

        Workload low = bareWorkload("low");
        low.getMetadata().setNamespace("bare-preempt");
        low.getSpec().setPriority(10);
        low = client.resource(low).create();
        cluster.awaitWorkload(low, Cluster::admitted);
        Workload high = bareWorkload("high");
        high.getMetadata().setNamespace("bare-preempt");
        high.getSpec().setPriority(1000);
        high = client.resource(high).create();

        // no job to stop: the low one's reservation is released as soon as its eviction is recorded
        cluster.awaitWorkload(high, Cluster::admitted);
        Workload requeued = cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "Requeued"));
        assertThat(requeued.getStatus().getAdmission()).isNull();
        assertThat(Cluster.condition(requeued, "Preempted").getReason()).isEqualTo("InClusterQueue");
    }

    private static Condition active(ClusterQueue cq) {
        return cq.getStatus() == null ? null : Conditions.find(cq.getStatus().getConditions(), "Active");
    }

    private static Workload bareWorkload(String name) {
        return Queues.bareWorkload(NS, name, "jobs", "1");
    }
}
