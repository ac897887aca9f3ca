package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A batch/v1 Job through its life; each test in its own namespace and ClusterQueue. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class BatchJobTest {

    @Inject
    KubernetesClient client;

    Cluster cluster;

    @BeforeEach
    void setUp() {
        cluster = new Cluster(client);
        if (client.resource(Queues.flavor("batch-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("batch-flavor", "{node-pool: batch}")).create();
        }
    }

    /** A namespace with LocalQueue "jobs" in ClusterQueue {@code <namespace>-cq} of {@code cpu} cpus. */
    private void queues(String namespace, String cpu) {
        cluster.namespace(namespace);
        client.resource(Queues.cpuQueue(namespace + "-cq", "batch-flavor", cpu, "{}")).create();
        client.resource(Queues.localQueue(namespace, "jobs", namespace + "-cq")).create();
    }

    /** The ack-kube-queue seed Job (suspended, 1 cpu), named and queued. */
    private Job job(String namespace, String name, String queue) {
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(namespace);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, queue));
        return client.batch().v1().jobs().inNamespace(namespace).resource(job).create();
    }

    private Job get(String namespace, String name) {
        return client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    }

    private Job awaitJob(String namespace, String name, java.util.function.Predicate<Job> condition) {
        return await().atMost(Cluster.TIMEOUT).until(() -> get(namespace, name), j -> j != null && condition.test(j));
    }

    @Test
    void wholeLifecycle() {
        queues("batch-life", "2");
        Job job = job("batch-life", "pi", "jobs");
        Workload wl = cluster.awaitWorkload(job, Cluster::admitted);
        assertThat(wl.getMetadata().getName()).startsWith("job-pi-");
        assertThat(wl.getMetadata().getLabels()).containsEntry(WellKnown.JOB_UID, job.getMetadata().getUid());
        assertThat(wl.getSpec().getPodSets()).singleElement().satisfies(ps -> {
            assertThat(ps.getName()).isEqualTo("main");
            assertThat(ps.getCount()).isEqualTo(1);
        });
        assertThat(wl.getStatus().getAdmission().getPodSetAssignments().get(0).getFlavors())
                .containsEntry("cpu", "batch-flavor").containsEntry("memory", "batch-flavor");
        Job running = awaitJob("batch-life", "pi", j -> Boolean.FALSE.equals(j.getSpec().getSuspend()));
        assertThat(running.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry("node-pool", "batch");
        assertThat(running.getSpec().getTemplate().getMetadata().getLabels()).containsEntry(WellKnown.POD_SET, "main");

        new FakeJobController(client).finishJob("batch-life", "pi", true);
        Workload finished = cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "Finished"));
        assertThat(Cluster.condition(finished, "Finished").getReason()).isEqualTo("Succeeded");
        cluster.awaitClusterQueue("batch-life-cq", cq -> cq.getStatus() != null
                && Integer.valueOf(0).equals(cq.getStatus().getAdmittedWorkloads())
                && cq.getStatus().getFlavorsReservation().get(0).getResources().get(0).getTotal().toString().equals("0"));
    }

    @Test
    void failedJobFinishesItsWorkloadAsFailed() {
        queues("batch-fail", "2");
        Job job = job("batch-fail", "pi", "jobs");
        cluster.awaitWorkload(job, Cluster::admitted);
        new FakeJobController(client).finishJob("batch-fail", "pi", false);
        Workload finished = cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "Finished"));
        assertThat(Cluster.condition(finished, "Finished").getReason()).isEqualTo("Failed");
    }

    @Test
    void manualUnsuspendIsReverted() {
        queues("batch-manual", "1");
        Job first = job("batch-manual", "first", "jobs");
        cluster.awaitWorkload(first, Cluster::admitted);
        Job second = job("batch-manual", "second", "jobs");
        cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        client.batch().v1().jobs().inNamespace("batch-manual").withName("second")
                .edit(j -> { j.getSpec().setSuspend(false); return j; });
        Job held = awaitJob("batch-manual", "second", j -> Boolean.TRUE.equals(j.getSpec().getSuspend()));
        // the Stopped event is sent after the write that suspended the job: wait for it, not for the write alone
        await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(held).stream()
                .anyMatch(e -> "Stopped".equals(e.getReason())));
        assertThat(cluster.events(held)).filteredOn(e -> "Stopped".equals(e.getReason())).isNotEmpty()
                .allSatisfy(e -> assertThat(e.getMessage()).contains("no quota reservation", "suspended again"));
        assertThat(cluster.workloadOf(second).getStatus().getAdmission()).isNull();
    }

    @Test
    void jobInMissingLocalQueueIsInadmissible() {
        queues("batch-missing", "1");
        Job job = job("batch-missing", "lost", "no-such-queue");
        Workload wl = cluster.awaitWorkload(job, w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured"));
        assertThat(Cluster.condition(wl, "QuotaReserved").getMessage()).isEqualTo("LocalQueue no-such-queue doesn't exist");
        assertThat(Boolean.TRUE.equals(get("batch-missing", "lost").getSpec().getSuspend())).isTrue();

        // the queue appears: the job is admitted
        client.resource(Queues.localQueue("batch-missing", "no-such-queue", "batch-missing-cq")).create();
        cluster.awaitWorkload(job, Cluster::admitted);
    }

    @Test
    void missingClusterQueueAndUnselectedNamespaceAreInadmissible() {
        cluster.namespace("batch-nocq");
        client.resource(Queues.localQueue("batch-nocq", "jobs", "batch-nocq-cq")).create();
        Job job = job("batch-nocq", "orphan", "jobs");
        Workload wl = cluster.awaitWorkload(job, w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured"));
        assertThat(Cluster.condition(wl, "QuotaReserved").getMessage()).isEqualTo("ClusterQueue batch-nocq-cq doesn't exist");
        var lq = cluster.awaitLocalQueue("batch-nocq", "jobs", q -> q.getStatus() != null
                && !Conditions.isTrue(q.getStatus().getConditions(), "Active"));
        assertThat(Conditions.find(lq.getStatus().getConditions(), "Active").getReason()).isEqualTo("ClusterQueueDoesNotExist");

        // the ClusterQueue appears but selects only namespaces labelled team=a
        client.resource(Queues.cpuQueue("batch-nocq-cq", "batch-flavor", "4", "{matchLabels: {team: a}}")).create();
        Workload unselected = cluster.awaitWorkload(job, w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured")
                && Cluster.condition(w, "QuotaReserved").getMessage().contains("namespace"));
        assertThat(Cluster.condition(unselected, "QuotaReserved").getMessage())
                .isEqualTo("Workload namespace doesn't match ClusterQueue selector");

        // the namespace gets the label: admitted
        client.namespaces().withName("batch-nocq").edit(n -> {
            n.getMetadata().setLabels(Map.of("team", "a"));
            return n;
        });
        cluster.awaitWorkload(job, Cluster::admitted);
    }

    @Test
    void aWaitingJobThatChangesGetsANewWorkload() {
        queues("batch-change", "1");
        Job first = job("batch-change", "first", "jobs");
        cluster.awaitWorkload(first, Cluster::admitted);
        Job second = job("batch-change", "second", "jobs");
        Workload before = cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        // what a real API server lets change on a suspended Job: not its pod template (spec.template is immutable
        // but for scheduling directives), but its labels, e.g. the queue
        client.resource(Queues.cpuQueue("batch-change-big-cq", "batch-flavor", "2", "{}")).create();
        client.resource(Queues.localQueue("batch-change", "big", "batch-change-big-cq")).create();
        client.batch().v1().jobs().inNamespace("batch-change").withName("second").edit(j -> {
            j.getMetadata().getLabels().put(WellKnown.QUEUE_NAME, "big");
            return j;
        });
        Workload after = cluster.awaitWorkload(second, w -> !w.getMetadata().getUid().equals(before.getMetadata().getUid())
                && Cluster.admitted(w));
        assertThat(after.getSpec().getQueueName()).isEqualTo("big");
        assertThat(after.getStatus().getAdmission().getClusterQueue()).isEqualTo("batch-change-big-cq");
        assertThat(cluster.events(get("batch-change", "second"))).extracting(e -> e.getReason()).contains("UpdatedWorkload");
    }

    @Test
    void deletingAJobFreesItsQuota() {
        queues("batch-delete", "1");
        Job first = job("batch-delete", "first", "jobs");
        Workload firstWl = cluster.awaitWorkload(first, Cluster::admitted);
        Job second = job("batch-delete", "second", "jobs");
        cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        client.batch().v1().jobs().inNamespace("batch-delete").withName("first").delete();
        cluster.awaitWorkload(second, Cluster::admitted);
        await().atMost(Cluster.TIMEOUT).until(() -> client.resources(Workload.class).inNamespace("batch-delete")
                .withName(firstWl.getMetadata().getName()).get() == null);
        assertThat(client.resources(Workload.class).inNamespace("batch-delete").list().getItems())
                .extracting(w -> w.getMetadata().getName()).hasSize(1);
        assertThat(List.of(awaitJob("batch-delete", "second", j -> Boolean.FALSE.equals(j.getSpec().getSuspend()))))
                .hasSize(1);
    }
}
