package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Preempting a running batch/v1 Job against a test API server that refuses what kube-apiserver refuses
 * ({@link ApiServerRules}): Sluice suspends first, clears the start time, waits for the Job controller to report no
 * active pods, and only then restores the template and releases the quota. A write the server refuses is reported
 * (event, Workload condition, counter) and retried, and the preemptor waits until it goes through.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class StopRunningJobTest {

    @Inject
    KubernetesClient client;

    Cluster cluster;

    /** Namespace {@code ns} with LocalQueue jobs in a 1-cpu ClusterQueue that preempts lower priorities. */
    private void queues(String ns) {
        cluster = new Cluster(client);
        cluster.namespace(ns);
        if (client.resource(Queues.flavor("stop-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("stop-flavor", "{node-pool: stop}")).create();
        }
        for (String[] wpc : new String[][] {{"stop-low", "10"}, {"stop-high", "1000"}}) {
            var pc = Queues.yaml(dev.sluice.api.v1beta2.WorkloadPriorityClass.class, """
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: WorkloadPriorityClass
                    metadata: {name: %s}
                    value: %s
                    """.formatted(wpc[0], wpc[1]));
            if (client.resource(pc).get() == null) {
                client.resource(pc).create();
            }
        }
        client.resource(Queues.yaml(dev.sluice.api.v1beta2.ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s-cq}
                spec:
                  namespaceSelector: {}
                  preemption: {withinClusterQueue: LowerPriority}
                  resourceGroups:
                  - coveredResources: [cpu, memory]
                    flavors:
                    - name: stop-flavor
                      resources:
                      - {name: cpu, nominalQuota: "1"}
                      - {name: memory, nominalQuota: 10Gi}
                """.formatted(ns))).create();
        client.resource(Queues.localQueue(ns, "jobs", ns + "-cq")).create();
    }

    private Job job(String ns, String name, String priorityClass) {
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(ns);
        job.getMetadata().setLabels(new HashMap<>(Map.of(WellKnown.QUEUE_NAME, "jobs",
                WellKnown.PRIORITY_CLASS, priorityClass)));
        return client.batch().v1().jobs().inNamespace(ns).resource(job).create();
    }

    private Job awaitJob(String ns, String name, Predicate<Job> condition) {
        return await().atMost(Cluster.TIMEOUT).until(
                () -> client.batch().v1().jobs().inNamespace(ns).withName(name).get(), j -> j != null && condition.test(j));
    }

    /** Plays the Job controller: the status it writes for a running Job (start time, active pods). */
    private void jobStatus(String ns, String name, String startTime, int active) {
        client.batch().v1().jobs().inNamespace(ns).withName(name).editStatus(j -> {
            j.setStatus(new JobStatus());
            j.getStatus().setStartTime(startTime);
            j.getStatus().setActive(active);
            return j;
        });
    }

    private static boolean reserved(Workload wl) {
        return wl != null && wl.getStatus() != null && wl.getStatus().getAdmission() != null;
    }

    private static boolean running(Job j) {
        return Boolean.FALSE.equals(j.getSpec().getSuspend());
    }

    private static boolean stopping(Job j) {
        return j.getMetadata().getAnnotations() != null
                && "true".equals(j.getMetadata().getAnnotations().get(WellKnown.STOPPING));
    }

    @Test
    void aRunningJobIsSuspendedFirstAndRestoredOnceItsPodsAreGone() {
        String ns = "stop-running";
        queues(ns);
        Job low = job(ns, "low", "stop-low");
        cluster.awaitWorkload(low, Cluster::admitted);
        Job started = awaitJob(ns, "low", StopRunningJobTest::running);
        assertThat(started.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry("node-pool", "stop");
        jobStatus(ns, "low", "2026-12-01T10:00:00Z", 1);

        // the test API server refuses a template change on a running Job, as kube-apiserver does
        assertThatThrownBy(() -> client.batch().v1().jobs().inNamespace(ns).withName("low").edit(j -> {
            j.getSpec().getTemplate().getSpec().setNodeSelector(Map.of());
            return j;
        })).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(422);
            assertThat(e.getStatus().getDetails().getCauses().get(0).getField()).isEqualTo("spec.template");
        });
        int refusedBefore = ApiServerRules.refusals("job-template");

        Job high = job(ns, "high", "stop-high");
        // first write: suspended and marked, template untouched; then the start time is cleared
        Job held = awaitJob(ns, "low", j -> !running(j) && stopping(j) && j.getStatus().getStartTime() == null);
        assertThat(held.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry("node-pool", "stop");
        Workload lowWl = cluster.workloadOf(low);
        assertThat(Cluster.isTrue(lowWl, "Evicted")).isTrue();
        assertThat(lowWl.getStatus().getAdmission()).as("quota kept until the job is stopped").isNotNull();
        assertThat(reserved(cluster.workloadOf(high))).isFalse();

        // the Job controller removes the pods: the template is restored and the quota released
        jobStatus(ns, "low", null, 0);
        Job restored = awaitJob(ns, "low", j -> !stopping(j));
        assertThat(restored.getSpec().getSuspend()).isTrue();
        assertThat(restored.getSpec().getTemplate().getSpec().getNodeSelector()).doesNotContainKey("node-pool");
        assertThat(restored.getSpec().getTemplate().getMetadata() == null
                || restored.getSpec().getTemplate().getMetadata().getLabels() == null
                || !restored.getSpec().getTemplate().getMetadata().getLabels().containsKey(WellKnown.POD_SET)).isTrue();
        cluster.awaitWorkload(high, Cluster::admitted);
        awaitJob(ns, "high", StopRunningJobTest::running);
        Workload requeued = cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "Requeued"));
        assertThat(requeued.getStatus().getAdmission()).isNull();
        assertThat(ApiServerRules.refusals("job-template")).as("no write the API server refuses").isEqualTo(refusedBefore);
    }

    /**
     * Kubernetes 1.36: the Job controller clears the start time of a suspended Job itself, and here it always gets there
     * first. Sluice's clear, computed on the Job it saw, then finds nothing to clear: a write that fails on an absent
     * field (a JSON patch {@code remove}, answered 422) would be reported as a refusal on every stop; the merge patch
     * is answered 409 (the Job changed) and the stop goes on from the newer Job, with nothing refused or reported.
     */
    @Test
    void onKubernetes136TheJobControllersOwnClearOfTheStartTimeIsNoRefusal() {
        String ns = "stop-136";
        ApiServerRules.jobController136(ns);
        queues(ns);
        Job low = job(ns, "low", "stop-low");
        cluster.awaitWorkload(low, Cluster::admitted);
        awaitJob(ns, "low", StopRunningJobTest::running);
        jobStatus(ns, "low", "2026-12-01T10:00:00Z", 1);
        int notAppliedBefore = ApiServerRules.refusals("json-patch");
        int clearedBefore = ApiServerRules.refusals("job-controller-start-time");

        Job high = job(ns, "high", "stop-high");
        awaitJob(ns, "low", j -> !running(j) && stopping(j) && j.getStatus().getStartTime() == null);
        await().atMost(Cluster.TIMEOUT).until(() -> ApiServerRules.refusals("job-controller-start-time") > clearedBefore);
        assertThat(reserved(cluster.workloadOf(high))).as("quota kept while the pods run").isFalse();

        jobStatus(ns, "low", null, 0);
        awaitJob(ns, "low", j -> !stopping(j));
        cluster.awaitWorkload(high, Cluster::admitted);
        Workload requeued = cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "Requeued"));
        assertThat(Cluster.condition(requeued, "WriteFailed")).as("no refused job write on the Workload").isNull();
        assertThat(cluster.events(client.batch().v1().jobs().inNamespace(ns).withName("low").get()))
                .noneMatch(e -> "WriteRefused".equals(e.getReason()));
        assertThat(ApiServerRules.refusals("json-patch")).as("no patch that does not apply").isEqualTo(notAppliedBefore);
    }

    @Test
    void aRefusedStopIsReportedWhereUsersLookAndRetried() throws Exception {
        String ns = "stop-refused";
        queues(ns);
        Job low = job(ns, "low", "stop-low");
        cluster.awaitWorkload(low, Cluster::admitted);
        awaitJob(ns, "low", StopRunningJobTest::running);
        String path = "/apis/batch/v1/namespaces/" + ns + "/jobs/low";
        ApiServerRules.deny("PATCH", path, 422, "Invalid",
                "Job.batch \"low\" is invalid: spec.template: Invalid value: \"...\": field is immutable");
        try {
            Job high = job(ns, "high", "stop-high");
            cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "WriteFailed"));
            Workload failing = cluster.workloadOf(low);
            assertThat(Cluster.condition(failing, "WriteFailed").getMessage())
                    .contains("could not suspend Job " + ns + "/low", "HTTP 422 (Invalid)", "field is immutable",
                            "sent: JSON patch: replace /metadata/resourceVersion, ", "replace /spec/suspend");
            await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(client.batch().v1().jobs().inNamespace(ns)
                    .withName("low").get()).stream().anyMatch(e -> "WriteRefused".equals(e.getReason())
                            && "Warning".equals(e.getType()) && e.getMessage().contains("field is immutable")));
            String metrics = ManagementEndpoint.get("/q/metrics").body();
            assertThat(metrics.lines().filter(l -> l.startsWith("sluice_api_write_failures_total{")
                    && l.contains("code=\"422\"") && l.contains("resource=\"jobs\"") && l.contains("verb=\"patch\"")))
                    .isNotEmpty();
            // nothing pretends the stop happened: the job runs, the preemptor waits
            assertThat(running(client.batch().v1().jobs().inNamespace(ns).withName("low").get())).isTrue();
            assertThat(reserved(cluster.workloadOf(high))).isFalse();

            ApiServerRules.allow("PATCH", path);
            cluster.awaitWorkload(high, Cluster::admitted);
            Workload recovered = cluster.awaitWorkload(low, w -> Cluster.isFalse(w, "WriteFailed", "Written"));
            assertThat(recovered.getStatus().getAdmission()).isNull();
            assertThat(running(client.batch().v1().jobs().inNamespace(ns).withName("low").get())).isFalse();
        } finally {
            ApiServerRules.allow("PATCH", path);
        }
    }
}
