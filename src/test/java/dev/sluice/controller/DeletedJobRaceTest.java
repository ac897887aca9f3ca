package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl delete job}: the garbage collector may delete the Job's Workload before the controller's cache hears
 * that the Job is gone. A Workload deleted under a Job the cache still shows is not created again until the API server
 * confirms the Job still exists, even when the job is handled after the cache dropped the Workload but before the
 * Workload's delete event was. The test makes the server say the Job is gone (404, as for a deleted Job) while the
 * cache still has it, then deletes the Workload.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class DeletedJobRaceTest {

    static final String NS = "deleted-race";

    @Inject
    KubernetesClient client;

    @Test
    void aWorkloadDeletedUnderAJobTheServerNoLongerHasIsNotCreatedAgain() {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        if (client.resource(Queues.flavor("race-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("race-flavor", "{}")).create();
        }
        client.resource(Queues.cpuQueue(NS + "-cq", "race-flavor", "2", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", NS + "-cq")).create();
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName("c");
        job.getMetadata().setNamespace(NS);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        Job created = client.batch().v1().jobs().inNamespace(NS).resource(job).create();
        Workload first = cluster.awaitWorkload(created, Cluster::admitted);

        String path = "/apis/batch/v1/namespaces/" + NS + "/jobs/c";
        ApiServerRules.deny("GET", path, 404, "NotFound", "jobs.batch \"c\" not found");
        try {
            client.resource(first).delete();
            // the controller asks the API server whether the Job is still there before it makes a Workload again
            await().atMost(Cluster.TIMEOUT).until(() -> ApiServerRules.denials("GET", path) > 0
                    || cluster.workloadOf(created) != null);
            assertThat(cluster.workloadOf(created)).as("a Workload made again without asking").isNull();
        } finally {
            ApiServerRules.allow("GET", path);
        }
        // the job is there after all (the server answers again): a change of it gets its Workload back
        client.batch().v1().jobs().inNamespace(NS).withName("c").edit(j -> {
            j.getMetadata().setAnnotations(Map.of("touched", "yes"));
            return j;
        });
        Workload again = cluster.awaitWorkload(created, w -> true);
        assertThat(again.getMetadata().getUid()).isNotEqualTo(first.getMetadata().getUid());
    }
}
