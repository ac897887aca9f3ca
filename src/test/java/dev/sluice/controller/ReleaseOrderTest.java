package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.bench.QuotaAudit;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Workload's status is the record of admission, so quota a job's end frees may go to another Workload only once
 * the release is stored: else the stored records are over quota until the release lands (for good if the controller
 * dies in between), as an auditor of a real cluster once saw. Each test holds the release in the API server (the
 * server stores nothing of it until the test lets it), lets everything else through, and an auditor watching every
 * stored change of the namespace, in the server's order, checks the records were never over quota.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ReleaseOrderTest {

    @Inject
    KubernetesClient client;

    private Cluster cluster;
    private final QuotaAudit audit = new QuotaAudit();

    /** A 1-cpu ClusterQueue for namespace {@code ns} (each job asks 1 cpu), and the auditor watching its Workloads. */
    private Watch queue(String ns) {
        cluster = new Cluster(client);
        cluster.namespace(ns);
        if (client.resource(Queues.flavor("release-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("release-flavor", "{}")).create();
        }
        ClusterQueue cq = client.resource(Queues.cpuQueue(ns + "-cq", "release-flavor", "1", "{}")).create();
        audit.clusterQueue(cq);
        client.resource(Queues.localQueue(ns, "jobs", ns + "-cq")).create();
        return client.resources(Workload.class).inNamespace(ns).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Workload wl) {
                String key = wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName();
                if (action == Action.DELETED) {
                    audit.deleted(key);
                } else {
                    audit.workload(key, wl);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    private Job job(String ns, String name) {
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(ns);
        job.getMetadata().setLabels(new HashMap<>(Map.of(WellKnown.QUEUE_NAME, "jobs")));
        return client.batch().v1().jobs().inNamespace(ns).resource(job).create();
    }

    /** Workload status writes the controller saw refused with a 403, as its counter says. */
    private static double failedStatusWrites() throws Exception {
        return dev.sluice.app.ManagementEndpoint.get("/q/metrics").body().lines()
                .filter(l -> l.startsWith("sluice_api_write_failures_total{") && l.contains("code=\"403\"")
                        && l.contains("resource=\"workloads/status\"") && l.contains("verb=\"patch\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static boolean reserved(Workload wl) {
        return wl != null && wl.getStatus() != null && wl.getStatus().getAdmission() != null;
    }

    /**
     * b's job succeeds while the API server does not store b's Finished write (an admission webhook refuses it until
     * released); d waits for b's quota. d's admission must not be stored before b's Finished.
     */
    @Test
    void theQuotaOfAFinishedJobIsUsedOnlyOnceItsFinishedIsStored() throws Exception {
        String ns = "release-finish";
        try (Watch watch = queue(ns)) {
            Job b = job(ns, "b");
            Workload bWl = cluster.awaitWorkload(b, Cluster::admitted);
            Job d = job(ns, "d");
            cluster.awaitWorkload(d, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

            String status = "/apis/kueue.x-k8s.io/v1beta2/namespaces/" + ns + "/workloads/"
                    + bWl.getMetadata().getName() + "/status";
            ApiServerRules.deny("PATCH", status, 403, "Forbidden", "admission webhook \"hold.test\" denied the request: "
                    + "held by the test");
            try {
                double failedBefore = failedStatusWrites();
                new FakeJobController(client).finishJob(ns, "b", true);
                // the Finished write was refused, and refused again after the controller's back-off: an admission of
                // d decided meanwhile would be stored by now
                await().atMost(Cluster.TIMEOUT).until(() -> failedStatusWrites() >= failedBefore + 2
                        || reserved(cluster.workloadOf(d)));
                assertThat(audit.violations()).isEmpty();
                assertThat(reserved(cluster.workloadOf(d))).as("d admitted while b's record still holds the quota")
                        .isFalse();
            } finally {
                ApiServerRules.allow("PATCH", status);
            }
            cluster.awaitWorkload(b, w -> Cluster.isTrue(w, "Finished"));
            cluster.awaitWorkload(d, Cluster::admitted);
            assertThat(audit.violations()).isEmpty();
            assertThat(audit.usage(ns + "-cq", "release-flavor", "cpu")).isEqualByComparingTo("1");
        }
    }

    /**
     * b's job is deleted; the API server refuses to delete b's Workload (a policy engine says no) until released, and
     * there is no garbage collector here. b's stored admission still counts: d waits until it is gone.
     */
    @Test
    void theQuotaOfADeletedJobIsUsedOnlyOnceItsWorkloadIsGone() {
        String ns = "release-delete";
        try (Watch watch = queue(ns)) {
            Job b = job(ns, "b");
            Workload bWl = cluster.awaitWorkload(b, Cluster::admitted);
            Job d = job(ns, "d");
            cluster.awaitWorkload(d, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

            String path = "/apis/kueue.x-k8s.io/v1beta2/namespaces/" + ns + "/workloads/" + bWl.getMetadata().getName();
            ApiServerRules.deny("DELETE", path, 403, "Forbidden", "workloads.kueue.x-k8s.io \""
                    + bWl.getMetadata().getName() + "\" is forbidden: denied by policy");
            try {
                client.batch().v1().jobs().inNamespace(ns).withName("b").delete();
                await().atMost(Cluster.TIMEOUT).until(() -> ApiServerRules.denials("DELETE", path) >= 2
                        || reserved(cluster.workloadOf(d)));
                assertThat(audit.violations()).isEmpty();
                assertThat(reserved(cluster.workloadOf(d))).as("d admitted while b's Workload still holds the quota")
                        .isFalse();
            } finally {
                ApiServerRules.allow("DELETE", path);
            }
            await().atMost(Cluster.TIMEOUT).until(() -> client.resources(Workload.class).inNamespace(ns)
                    .withName(bWl.getMetadata().getName()).get() == null);
            cluster.awaitWorkload(d, Cluster::admitted);
            assertThat(audit.violations()).isEmpty();
        }
    }
}
