package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * objectRetentionPolicies on the controller's clock (a test clock): a finished Workload is deleted after afterFinished,
 * one Kueue deactivated after afterDeactivatedByKueue (by deleting its job when it has one); nothing else is deleted,
 * and nothing before its time, and never a Workload that holds quota.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(RetentionTest.Retain.class)
class RetentionTest {

    public static class Retain implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // waitForPodsReady off: its 30-minute timeout would evict the running Workload as the clock moves
            return Map.of("sluice.object-retention.workloads.after-finished", "1h",
                    "sluice.object-retention.workloads.after-deactivated-by-kueue", "30m",
                    "sluice.wait-for-pods-ready.enabled", "false");
        }

        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(TestClock.class);
        }
    }

    static final String NS = "retention";
    static final Duration QUIET = Duration.ofSeconds(3);

    @Inject
    KubernetesClient client;
    @Inject
    TestClock clock;

    @Test
    void deletesOnlyWhatThePolicyNamesAfterItsTime() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("retention-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("retention-cq", "retention-flavor", "2", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", "retention-cq")).create();

        Workload done = client.resource(bare("done")).create();
        Workload running = client.resource(bare("running")).create();
        cluster.awaitWorkload(done, Cluster::admitted);
        cluster.awaitWorkload(running, Cluster::admitted);
        Workload pending = client.resource(bare("pending")).create();
        cluster.awaitWorkload(pending, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Job job = job("deactivated-job");
        Workload jobWl = cluster.awaitWorkload(job, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Workload byUser = client.resource(bare("by-user")).create();
        cluster.awaitWorkload(byUser, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Workload byKueue = client.resource(bare("by-kueue")).create();
        cluster.awaitWorkload(byKueue, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        // the runner finishes one; Kueue's deactivation (as at the requeuing limit) of two, a user's of one
        deactivate(jobWl, "DeactivatedDueToRequeuingLimitExceeded");
        deactivate(byKueue, "DeactivatedDueToRequeuingLimitExceeded");
        deactivate(byUser, "Deactivated");
        setStatus(done, "Finished", "True", "Succeeded");
        cluster.awaitWorkload(done, w -> w.getMetadata().getResourceVersion() != null && Cluster.isTrue(w, "Finished"));

        // not yet: 29 minutes
        clock.advance(Duration.ofMinutes(29));
        Thread.sleep(QUIET.toMillis());
        assertThat(names()).contains("done", "running", "pending", "by-user", "by-kueue", jobWl.getMetadata().getName());
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName("deactivated-job").get()).isNotNull();

        // 31 minutes: the Workload Kueue deactivated is deleted, and the job of the other one (its Workload follows by
        // garbage collection in a cluster; the test API server has none)
        clock.advance(Duration.ofMinutes(2));
        await().atMost(Cluster.TIMEOUT).until(() -> !names().contains("by-kueue"));
        await().atMost(Cluster.TIMEOUT).until(() -> client.batch().v1().jobs().inNamespace(NS).withName("deactivated-job")
                .get() == null);
        assertThat(names()).contains("done", "running", "pending", "by-user");

        // 61 minutes: the finished one goes; the running one (holds quota), the pending one and the one a user
        // deactivated stay, however long
        clock.advance(Duration.ofMinutes(30));
        await().atMost(Cluster.TIMEOUT).until(() -> !names().contains("done"));
        clock.advance(Duration.ofDays(30));
        Thread.sleep(QUIET.toMillis());
        assertThat(names()).contains("running", "pending", "by-user");
        assertThat(Cluster.admitted(cluster.workloadOf(running))).isTrue();
        assertThat(client.v1().events().inNamespace(NS).list().getItems()).anyMatch(e -> "Deleted".equals(e.getReason())
                && "done".equals(e.getInvolvedObject().getName())
                && "Deleted finished workload due to elapsed retention".equals(e.getMessage()));
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        client.resources(Workload.class).inNamespace(NS).list().getItems().forEach(w -> names.add(w.getMetadata().getName()));
        return names;
    }

    private void deactivate(Workload wl, String reason) {
        client.resources(Workload.class).inNamespace(NS).withName(wl.getMetadata().getName()).edit(w -> {
            w.getSpec().setActive(false);
            return w;
        });
        setStatus(wl, "Evicted", "True", reason);
    }

    private void setStatus(Workload wl, String type, String status, String reason) {
        Cluster.setCondition(client, NS, wl.getMetadata().getName(), new ConditionBuilder().withType(type)
                .withStatus(status).withReason(reason).withMessage(reason)
                .withLastTransitionTime(clock.instant().toString()).build());
    }

    private static Workload bare(String name) {
        return Queues.bareWorkload(NS, name, "jobs", "1");
    }

    private Job job(String name) {
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(NS).resource(job).create();
    }
}
