package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Only the Lease holder admits: while another replica holds the Lease nothing is queued or admitted here. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class LeaderElectionTest {

    static final String NS = "leader";

    @Inject
    KubernetesClient client;

    @Inject
    ControllerRuntime runtime;

    @Test
    void onlyTheLeaseHolderAdmits() {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);

        // another replica takes the Lease: this one stops admitting at once and stands by
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC), 3600);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.standby);
        assertThat(runtime.ready()).isTrue(); // a standby still serves webhooks

        client.resource(Queues.flavor("leader-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("leader-cq", "leader-flavor", "2", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", "leader-cq")).create();
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName("waits-for-a-leader");
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        Job created = client.batch().v1().jobs().inNamespace(NS).resource(job).create();
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> client.resources(Workload.class).inNamespace(NS).list().getItems().isEmpty());

        // the other replica's Lease runs out: this one leads again, rebuilds and admits
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC).minusHours(2), 1);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        cluster.awaitWorkload(created, Cluster::admitted);
        await().atMost(Cluster.TIMEOUT).until(runtime::ready);
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(client.batch().v1().jobs().inNamespace(NS)
                .withName("waits-for-a-leader").get().getSpec().getSuspend()));

        // the other replica leads again, records an eviction, and dies before stopping the job
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC), 3600);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.standby);
        Workload running = cluster.workloadOf(created);
        WorkloadConditions.evict(running, "Preempted", "InClusterQueue",
                "Preempted to accommodate a workload (UID: x, JobUID: y) due to prioritization in the ClusterQueue",
                java.time.Instant.now());
        client.resource(running).updateStatus();
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC).minusHours(2), 1);

        // this replica completes the eviction (job stopped, quota released, requeued) and, with the quota free,
        // admits the workload again: nothing lost, nothing counted twice
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        Workload again = cluster.awaitWorkload(created, w -> Cluster.admitted(w) && Cluster.isFalse(w, "Evicted", "QuotaReserved"));
        assertThat(Cluster.condition(again, "Requeued").getStatus()).isEqualTo("True");
        assertThat(cluster.events(client.batch().v1().jobs().inNamespace(NS).withName("waits-for-a-leader").get()))
                .extracting(e -> e.getReason()).contains("Stopped");
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(client.batch().v1().jobs().inNamespace(NS)
                .withName("waits-for-a-leader").get().getSpec().getSuspend()));
        cluster.awaitClusterQueue("leader-cq", cq -> cq.getStatus() != null
                && Integer.valueOf(1).equals(cq.getStatus().getAdmittedWorkloads())
                && Integer.valueOf(0).equals(cq.getStatus().getPendingWorkloads()));
    }

    private void takeLease(String holder, ZonedDateTime renewed, int seconds) {
        client.leases().inNamespace("default").withName("sluice-controller").edit(lease -> {
            lease.getSpec().setHolderIdentity(holder);
            lease.getSpec().setAcquireTime(renewed);
            lease.getSpec().setRenewTime(renewed);
            lease.getSpec().setLeaseDurationSeconds(seconds);
            return lease;
        });
    }
}
