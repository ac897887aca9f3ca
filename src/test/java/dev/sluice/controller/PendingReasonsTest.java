package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.StopPolicy;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19's pending reasons (KEP 10852) as the controller writes them: QuotaReserved=False with the granular
 * reason and today's message, Admitted=False/NoReservation beside it, and the unadmitted-workload gauges by reason.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class PendingReasonsTest {
    static final String NS = "pending-reasons";
    static final String CQ = "pending-reasons-cq";
    static final String MISSING_CQ = "pending-reasons-missing-cq";
    static final String PREEMPT_NS = "pending-preempt";
    static final String PREEMPT_CQ = "pending-preempt-cq";

    @Inject
    KubernetesClient client;

    @Test
    void eachSituationGetsKueuesReasonAndTheGaugesCountTheWaitingOnes() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("pending-reasons-flavor", "{zone: a}")).create();
        client.resource(Queues.cpuQueue(CQ, "pending-reasons-flavor", "1", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", CQ)).create();

        cluster.awaitWorkload(client.resource(workload("first", "jobs", "1", "")).create(), Cluster::admitted);

        // the queue is full: waits for quota
        Workload second = cluster.awaitWorkload(client.resource(workload("second", "jobs", "1", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        assertThat(Cluster.condition(second, "QuotaReserved").getMessage()).contains("insufficient unused quota");
        assertThat(Cluster.isFalse(second, "Admitted", "NoReservation")).isTrue();
        assertThat(Cluster.condition(second, "Admitted").getMessage()).isEqualTo("The workload has no reservation");

        // more than the queue could ever hold
        Workload huge = cluster.awaitWorkload(client.resource(workload("huge", "jobs", "5", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "ExceedsMaxQuota"));
        assertThat(Cluster.isFalse(huge, "Admitted", "NoReservation")).isTrue();

        // no flavor matches its node selector
        Workload elsewhere = cluster.awaitWorkload(
                client.resource(workload("elsewhere", "jobs", "1", "nodeSelector: {zone: b}")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "NoMatchingFlavor"));
        assertThat(Cluster.isFalse(elsewhere, "Admitted", "NoReservation")).isTrue();

        // its LocalQueue does not exist
        Workload lost = cluster.awaitWorkload(client.resource(workload("lost", "no-such-queue", "1", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured"));
        assertThat(Cluster.condition(lost, "QuotaReserved").getMessage())
                .isEqualTo("LocalQueue no-such-queue doesn't exist");
        assertThat(Cluster.isFalse(lost, "Admitted", "NoReservation")).isTrue();

        // its LocalQueue names a ClusterQueue that does not exist
        client.resource(Queues.localQueue(NS, "orphans", MISSING_CQ)).create();
        Workload orphan = cluster.awaitWorkload(client.resource(workload("orphan", "orphans", "1", "")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "Misconfigured"));
        assertThat(Cluster.condition(orphan, "QuotaReserved").getMessage())
                .isEqualTo("ClusterQueue " + MISSING_CQ + " doesn't exist");

        // the gauges count the waiting workloads of the ClusterQueue by both reasons
        await().atMost(Cluster.TIMEOUT).untilAsserted(() -> {
            String metrics = ManagementEndpoint.get("/q/metrics").body();
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"WaitingForQuota\"} 1.0");
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"ExceedsMaxQuota\"} 1.0");
            assertThat(metrics).contains("kueue_local_queue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",name=\"jobs\",namespace=\"" + NS
                    + "\",reason=\"NoReservation\",underlying_cause=\"WaitingForQuota\"} 1.0");
            // a Misconfigured one in no queue counts under the ClusterQueue its LocalQueue names, as Kueue counts it;
            // without a LocalQueue no ClusterQueue is known and Kueue reports no series
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + MISSING_CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"Misconfigured\"} 1.0");
            assertThat(metrics).contains("kueue_local_queue_unadmitted_workloads{cluster_queue=\"" + MISSING_CQ
                    + "\",name=\"orphans\",namespace=\"" + NS
                    + "\",reason=\"NoReservation\",underlying_cause=\"Misconfigured\"} 1.0");
            // (another test's LocalQueue may be called no-such-queue too: only this namespace's series count)
            assertThat(metrics).doesNotContain("name=\"no-such-queue\",namespace=\"" + NS + "\"")
                    .doesNotContain("cluster_queue=\"\"");
        });

        // deactivated (spec.active: false): Deactivated before any other reason, and no longer counted as ExceedsMaxQuota
        client.resources(Workload.class).inNamespace(NS).withName("huge").edit(w -> {
            w.getSpec().setActive(false);
            return w;
        });
        Workload off = cluster.awaitWorkload(huge, w -> Cluster.isFalse(w, "QuotaReserved", "Deactivated"));
        assertThat(Cluster.isFalse(off, "Admitted", "NoReservation")).isTrue();
        await().atMost(Cluster.TIMEOUT).untilAsserted(() -> assertThat(ManagementEndpoint.get("/q/metrics").body())
                .doesNotContain("cluster_queue=\"" + CQ + "\",reason=\"NoReservation\",underlying_cause=\"ExceedsMaxQuota\""));

        // its LocalQueue is held: suspended
        client.resources(LocalQueue.class).inNamespace(NS).withName("jobs").edit(lq -> {
            lq.getSpec().setStopPolicy(StopPolicy.Hold);
            return lq;
        });
        cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "Suspended"));
        // out of the ClusterQueue's queue, still counted under it: the two held ones and the deactivated one
        await().atMost(Cluster.TIMEOUT).untilAsserted(() -> {
            String metrics = ManagementEndpoint.get("/q/metrics").body();
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"Suspended\"} 2.0");
            assertThat(metrics).contains("kueue_unadmitted_workloads{cluster_queue=\"" + CQ
                    + "\",reason=\"NoReservation\",underlying_cause=\"Deactivated\"} 1.0");
        });
    }

    /**
     * Kueue v0.19's scheduler gives the preemptor WaitingForPreemptedWorkloads once it issued the preemptions
     * (pkg/scheduler/scheduler.go), until the victims release their quota; here the victim Job keeps a running pod.
     */
    @Test
    void aPreemptorWaitsForItsPreemptedWorkloads() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(PREEMPT_NS);
        client.resource(Queues.flavor("pending-preempt-flavor", "{}")).create();
        client.resource(Queues.yaml(dev.sluice.api.v1beta2.ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  namespaceSelector: {}
                  preemption: {withinClusterQueue: LowerPriority}
                  resourceGroups:
                  - coveredResources: [cpu, memory]
                    flavors:
                    - name: pending-preempt-flavor
                      resources:
                      - {name: cpu, nominalQuota: "1"}
                      - {name: memory, nominalQuota: 1Gi}
                """.formatted(PREEMPT_CQ))).create();
        client.resource(Queues.localQueue(PREEMPT_NS, "jobs", PREEMPT_CQ)).create();

        // the victim: a Job that runs with one pod
        io.fabric8.kubernetes.api.model.batch.v1.Job job =
                (io.fabric8.kubernetes.api.model.batch.v1.Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName("victim");
        job.getMetadata().setLabels(java.util.Map.of(dev.sluice.jobs.WellKnown.QUEUE_NAME, "jobs"));
        io.fabric8.kubernetes.api.model.batch.v1.Job victim =
                client.batch().v1().jobs().inNamespace(PREEMPT_NS).resource(job).create();
        cluster.awaitWorkload(victim, Cluster::admitted);
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(client.batch().v1().jobs()
                .inNamespace(PREEMPT_NS).withName("victim").get().getSpec().getSuspend()));
        FakeJobController jobs = new FakeJobController(client);
        jobs.activePods(PREEMPT_NS, "victim", 1);

        // a higher-priority Workload preempts it, and waits while the victim's pod still runs
        Workload preemptor = client.resource(Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: preemptor, namespace: %s}
                spec:
                  queueName: jobs
                  priority: 1000
                  podSets:
                  - name: main
                    count: 1
                    template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox,
                      resources: {requests: {cpu: "1"}}}]}}
                """.formatted(PREEMPT_NS))).create();
        Workload waiting = cluster.awaitWorkload(preemptor,
                w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForPreemptedWorkloads"));
        assertThat(Cluster.isFalse(waiting, "Admitted", "NoReservation")).isTrue();
        assertThat(Cluster.condition(waiting, "QuotaReserved").getMessage())
                .contains("Pending the preemption of 1 workload(s)");
        assertThat(Cluster.isTrue(cluster.workloadOf(victim), "Evicted")).isTrue();
        await().atMost(Cluster.TIMEOUT).untilAsserted(() -> assertThat(ManagementEndpoint.get("/q/metrics").body())
                .contains("kueue_unadmitted_workloads{cluster_queue=\"" + PREEMPT_CQ
                        + "\",reason=\"NoReservation\",underlying_cause=\"WaitingForPreemptedWorkloads\"} 1.0"));

        // the victim's pod is gone: its quota is released and the preemptor admitted
        jobs.activePods(PREEMPT_NS, "victim", 0);
        cluster.awaitWorkload(preemptor, Cluster::admitted);
    }

    private static Workload workload(String name, String queue, String cpu, String podSpecExtra) {
        return Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: %s, namespace: %s}
                spec:
                  queueName: %s
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        restartPolicy: Never
                        %s
                        containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "%s"}}}
                """.formatted(name, NS, queue, podSpecExtra, cpu));
    }
}
