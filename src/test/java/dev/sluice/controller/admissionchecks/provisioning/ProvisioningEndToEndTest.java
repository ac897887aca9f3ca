package dev.sluice.controller.admissionchecks.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.Cluster;
import dev.sluice.controller.Queues;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admission-check framework and the ProvisioningRequest controller together, as on a cluster with the cluster
 * autoscaler: a queued Job on a ClusterQueue whose check is {@code kueue.x-k8s.io/provisioning-request} reserves
 * quota, its ProvisioningRequest is created, and only when the autoscaler says Provisioned is the Workload Admitted
 * and the Job started, its pods told to consume the request. The test plays only the autoscaler (and nothing of
 * Sluice): the check's state, the Admitted condition and the start are the two controllers' own.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ProvisioningEndToEndTest {

    @Inject
    KubernetesClient client;
    @Inject
    ProvisioningController controller;

    Fixtures f;
    Cluster cluster;

    @BeforeEach
    void setUp() {
        f = new Fixtures(client);
        cluster = new Cluster(client);
        f.installProvisioningRequestCrd();
        await().atMost(Fixtures.TIMEOUT).until(controller::running);
        if (client.resource(Queues.flavor("pr-e2e-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("pr-e2e-flavor", "{pool: e2e}")).create();
        }
    }

    private Job job(String ns, String name) {
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(ns);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(ns).resource(job).create();
    }

    private Job read(Job job) {
        return client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
                .withName(job.getMetadata().getName()).get();
    }

    @Test
    void aJobStartsOnlyOnceItsCapacityIsProvisionedAndItsPodsConsumeTheRequest() {
        String ns = "pr-e2e";
        cluster.namespace(ns);
        f.config("e2e-config", Fixtures.baseConfig(3));
        f.activeCheck("e2e-check", "e2e-config");
        ClusterQueue cq = Queues.cpuQueue("pr-e2e-cq", "pr-e2e-flavor", "2", "{}");
        var rule = new dev.sluice.api.v1beta2.AdmissionCheckStrategyRule();
        rule.setName("e2e-check");
        var strategy = new dev.sluice.api.v1beta2.AdmissionChecksStrategy();
        strategy.setAdmissionChecks(List.of(rule));
        cq.getSpec().setAdmissionChecksStrategy(strategy);
        client.resource(cq).create();
        client.resource(Queues.localQueue(ns, "jobs", "pr-e2e-cq")).create();

        Job job = job(ns, "train");
        Workload reserved = cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "QuotaReserved"));
        String request = reserved.getMetadata().getName() + "-e2e-check-1";
        GenericKubernetesResource pr = f.awaitRequest(ns, request);
        assertThat(ProvisioningRequests.className(pr)).isEqualTo("class1");
        assertThat(Cluster.isTrue(f.read(ns, reserved.getMetadata().getName()), "Admitted"))
                .as("not admitted while the request is not provisioned").isFalse();
        assertThat(read(job).getSpec().getSuspend()).as("held while the check is Pending").isTrue();

        f.autoscalerSets(ns, request, Map.of(), "Accepted=True", "Provisioned=True:capacity is there");
        Workload admitted = cluster.awaitWorkload(job, Cluster::admitted);
        assertThat(WorkloadReconciler.find(admitted.getStatus().getAdmissionChecks(), "e2e-check").getState())
                .isEqualTo(CheckState.Ready);
        Job started = await().atMost(Fixtures.TIMEOUT).until(() -> read(job), j -> !j.getSpec().getSuspend());
        assertThat(started.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry(ProvisioningRequests.CONSUME_ANNOTATION, request)
                .containsEntry(ProvisioningRequests.CLASS_ANNOTATION, "class1");
        assertThat(started.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry("pool", "e2e");
    }
}
