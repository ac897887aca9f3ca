package dev.sluice.controller;

import dev.sluice.apiserver.ApiServerRules;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator restarts mid-run: admissions are counted again from the Workloads, none is lost or made twice. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class RestartTest {

    static final String NS = "restart";

    @Inject
    KubernetesClient client;

    @Inject
    ControllerRuntime runtime;

    @Test
    void restartKeepsEveryAdmissionAndAdmitsNothingTwice() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        if (client.resource(Queues.flavor("restart-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("restart-flavor", "{}")).create();
        }
        client.resource(Queues.cpuQueue("restart-cq", "restart-flavor", "2", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", "restart-cq")).create();
        Job a = job("a");
        Workload aWl = cluster.awaitWorkload(a, Cluster::admitted);
        Job b = job("b");
        Workload bWl = cluster.awaitWorkload(b, Cluster::admitted);
        Job c = job("c");
        cluster.awaitWorkload(c, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        assertThat(runtime.restart(Duration.ofSeconds(30))).isTrue();
        assertThat(runtime.ready()).isTrue();

        // the new engine sees a full queue: a new job waits, with the quota message, and so does c
        Job d = job("d");
        Workload dWl = cluster.awaitWorkload(d, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota")
                && Cluster.condition(w, "QuotaReserved").getMessage().contains("insufficient unused quota"));
        assertThat(dWl.getStatus().getAdmission()).isNull();
        assertThat(cluster.workloadOf(c).getStatus().getAdmission()).isNull();
        for (Workload before : new Workload[] {aWl, bWl}) {
            Workload after = client.resources(Workload.class).inNamespace(NS).withName(before.getMetadata().getName()).get();
            assertThat(after.getStatus().getAdmission().getClusterQueue()).isEqualTo("restart-cq");
            assertThat(Cluster.condition(after, "QuotaReserved").getLastTransitionTime())
                    .isEqualTo(Cluster.condition(before, "QuotaReserved").getLastTransitionTime());
            assertThat(cluster.events(after)).filteredOn(e -> "QuotaReserved".equals(e.getReason())).hasSize(1);
        }
        cluster.awaitClusterQueue("restart-cq", cq -> cq.getStatus() != null
                && Integer.valueOf(2).equals(cq.getStatus().getAdmittedWorkloads())
                && Integer.valueOf(2).equals(cq.getStatus().getPendingWorkloads()));

        // a finishes: exactly the oldest waiting one (c) takes its place
        new FakeJobController(client).finishJob(NS, "a", true);
        cluster.awaitWorkload(c, Cluster::admitted);
        cluster.awaitClusterQueue("restart-cq", cq -> Integer.valueOf(2).equals(cq.getStatus().getAdmittedWorkloads())
                && Integer.valueOf(1).equals(cq.getStatus().getPendingWorkloads()));
        assertThat(cluster.workloadOf(d).getStatus().getAdmission()).isNull();
    }

    private Job job(String name) {
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(NS).resource(job).create();
    }
}
