package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.sluice.apiserver.ApiServerRules;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * waitForPodsReady.blockAdmission: while an admitted workload's pods are not ready nothing else is admitted, though
 * quota is free; readiness, or the timeout's eviction, lets the next one in.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(BlockAdmissionTest.Block.class)
class BlockAdmissionTest {

    public static class Block implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.wait-for-pods-ready.block-admission", "true",
                    "sluice.wait-for-pods-ready.timeout", "10m",
                    "sluice.wait-for-pods-ready.check-period", "50ms");
        }

        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(TestClock.class);
        }
    }

    static final String NS = "block-admission";

    @Inject
    KubernetesClient client;
    @Inject
    TestClock clock;

    @Test
    void aNotReadyWorkloadHoldsOtherAdmissionsUntilReadyOrTimedOut() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("block-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("block-cq", "block-flavor", "3", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", "block-cq")).create();

        Job first = job("first");
        cluster.awaitWorkload(first, Cluster::admitted);
        Job second = job("second");
        cluster.awaitWorkload(second, w -> true);
        Thread.sleep(1000);
        assertThat(Cluster.admitted(cluster.workloadOf(second))).as("room for it, but first is not ready").isFalse();
        // Kueue's condition on the head that waits
        Workload waiting = cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForPodsReady"));
        assertThat(Cluster.condition(waiting, "QuotaReserved").getMessage())
                .isEqualTo("waiting for all admitted workloads to be in PodsReady condition");

        ready("first");
        cluster.awaitWorkload(first, w -> Cluster.isTrue(w, "PodsReady"));
        cluster.awaitWorkload(second, Cluster::admitted);

        // second never gets ready: third waits until second's timeout evicts it
        Job third = job("third");
        cluster.awaitWorkload(third, w -> true);
        Thread.sleep(1000);
        assertThat(Cluster.admitted(cluster.workloadOf(third))).isFalse();
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        Workload evicted = cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "Requeued", "PodsReadyTimeout"));
        assertThat(evicted.getStatus().getAdmission()).isNull();
        cluster.awaitWorkload(third, Cluster::admitted);
    }

    private Job job(String name) {
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(NS).resource(job).create();
    }

    private void ready(String name) {
        // as the Job controller: pods only once Sluice started the Job
        org.awaitility.Awaitility.await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(
                client.batch().v1().jobs().inNamespace(NS).withName(name).get().getSpec().getSuspend()));
        client.batch().v1().jobs().inNamespace(NS).withName(name).editStatus(j -> {
            j.setStatus(new JobStatusBuilder().withActive(1).withReady(1).build());
            return j;
        });
    }
}
