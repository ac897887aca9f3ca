package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
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
 * waitForPodsReady.requeuingStrategy.timestamp=Creation on a fake clock: a Workload evicted for PodsReadyTimeout goes
 * back to the place its creation gives it, ahead of a Workload created after it (with the default, Eviction, that one
 * would go first: it was queued before the eviction).
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(RequeueByCreationTest.ByCreation.class)
class RequeueByCreationTest {

    public static class ByCreation implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.wait-for-pods-ready.timeout", "10m",
                    "sluice.wait-for-pods-ready.requeuing-strategy.timestamp", "Creation",
                    "sluice.wait-for-pods-ready.backoff-base-seconds", "60",
                    "sluice.wait-for-pods-ready.check-period", "50ms");
        }

        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(TestClock.class);
        }
    }

    static final String NS = "requeue-by-creation";

    @Inject
    KubernetesClient client;
    @Inject
    TestClock clock;

    @Test
    void aTimedOutWorkloadIsQueuedAgainByItsCreationAheadOfALaterOne() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("creation-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("creation-cq", "creation-flavor", "1", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", "creation-cq")).create();

        Job stuck = job("stuck");
        cluster.awaitWorkload(stuck, Cluster::admitted);
        Job running = job("running");
        cluster.awaitWorkload(running, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        // stuck times out: running gets the quota and its pods get ready
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        cluster.awaitWorkload(stuck, w -> Cluster.isFalse(w, "Requeued", "PodsReadyTimeout"));
        cluster.awaitWorkload(running, Cluster::admitted);
        ready("running");
        cluster.awaitWorkload(running, w -> Cluster.isTrue(w, "PodsReady"));

        // created after stuck, queued before stuck's eviction
        Job later = job("later");
        cluster.awaitWorkload(later, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        clock.advance(Duration.ofSeconds(61));
        cluster.awaitWorkload(stuck, w -> Cluster.isTrue(w, "Requeued")
                && "BackoffFinished".equals(Cluster.condition(w, "Requeued").getReason()));
        Thread.sleep(500); // its event queues it again

        new FakeJobController(client).finishJob(NS, "running", true);
        cluster.awaitWorkload(running, w -> Cluster.isTrue(w, "Finished"));
        cluster.awaitWorkload(stuck, Cluster::admitted);
        assertThat(Cluster.admitted(cluster.workloadOf(later)))
                .as("by creation, stuck (created first) goes before later").isFalse();
    }

    private Job job(String name) {
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(NS).resource(job).create();
    }

    /** Plays the Job controller once Sluice started the Job: its pod is ready. */
    private void ready(String name) {
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(
                client.batch().v1().jobs().inNamespace(NS).withName(name).get().getSpec().getSuspend()));
        client.batch().v1().jobs().inNamespace(NS).withName(name).editStatus(j -> {
            j.setStatus(new JobStatusBuilder().withActive(1).withReady(1).build());
            return j;
        });
    }
}
