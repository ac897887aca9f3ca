package dev.sluice.controller;

import dev.sluice.apiserver.ApiServerRules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.BatchJobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Every write carries a resourceVersion precondition: a write computed from a stale copy is refused. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class WritesTest {

    static final String NS = "writes";

    @Inject
    KubernetesClient client;

    @Test
    void staleJobPatchIsAConflict() {
        new Cluster(client).namespace(NS);
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName("not-queued"); // no queue label: Sluice leaves it alone
        client.batch().v1().jobs().inNamespace(NS).resource(job).create();
        BatchJobKind kind = new BatchJobKind();
        GenericKubernetesResource stale = client.genericKubernetesResources("batch/v1", "Job").inNamespace(NS)
                .withName("not-queued").get();
        client.batch().v1().jobs().inNamespace(NS).withName("not-queued").edit(j -> {
            j.getMetadata().setAnnotations(java.util.Map.of("touched", "yes"));
            return j;
        });
        GenericKubernetesResource unsuspended = Serialization.clone(stale);
        Cluster.spec(unsuspended).put("suspend", false);
        Writes writes = new Writes(client);

        assertThatThrownBy(() -> writes.jobPatch(kind, stale, unsuspended))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(Writes.isConflict(e)).isTrue());
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName("not-queued").get().getSpec().getSuspend()).isTrue();

        GenericKubernetesResource fresh = client.genericKubernetesResources("batch/v1", "Job").inNamespace(NS)
                .withName("not-queued").get();
        GenericKubernetesResource next = Serialization.clone(fresh);
        Cluster.spec(next).put("suspend", false);
        writes.jobPatch(kind, fresh, next);
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName("not-queued").get().getSpec().getSuspend()).isFalse();
    }

    @Test
    void staleStatusWriteIsReReadAndAppliedOnce() {
        new Cluster(client).namespace(NS);
        Workload wl = workloadWithoutQueue("no-queue");
        Workload stale = client.resource(wl).create();
        // someone else writes first
        Workload other = Serialization.clone(stale);
        WorkloadConditions.finish(other, "Succeeded", "done elsewhere", Instant.parse("2026-01-01T00:00:00Z"));
        client.resource(other).updateStatus();

        Writes.Written written = new Writes(client).workloadStatus(stale,
                w -> WorkloadConditions.pending(w, "WaitingForQuota", "waiting", Instant.now()));
        assertThat(written.changed()).isTrue();
        Workload now = client.resources(Workload.class).inNamespace(NS).withName("no-queue").get();
        assertThat(Cluster.isTrue(now, "Finished")).as("the other write is kept").isTrue();
        assertThat(Cluster.isFalse(now, "QuotaReserved", "WaitingForQuota")).isTrue();
    }

    /**
     * Each write is the one PATCH: fabric8 reads an object named alone before patching it (a GET per write, twice the
     * requests, and a verb the RBAC must grant), so every patch names its object by a stub.
     */
    @Test
    void aWriteIsOnePatchWithoutAReadFirst() {
        new Cluster(client).namespace(NS);
        Workload wl = workloadWithoutQueue("one-request");
        client.resource(wl).create();
        // the controller marks it misconfigured (no queue) first: the write below starts from what it wrote
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() -> Cluster.isFalse(
                client.resources(Workload.class).inNamespace(NS).withName("one-request").get(), "QuotaReserved",
                "Misconfigured"));
        Workload created = client.resources(Workload.class).inNamespace(NS).withName("one-request").get();
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName("one-request"); // no queue label: Sluice leaves it alone
        client.batch().v1().jobs().inNamespace(NS).resource(job).create();
        GenericKubernetesResource cachedJob = client.genericKubernetesResources("batch/v1", "Job").inNamespace(NS)
                .withName("one-request").get();
        List<String> requests = new CopyOnWriteArrayList<>();
        Interceptor recorder = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                requests.add(request.method() + " " + request.uri().getPath());
            }
        };
        try (KubernetesClient recorded = new KubernetesClientBuilder().withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("recorder", recorder)).build()) {
            Writes writes = new Writes(recorded);
            Writes.Written written = writes.workloadStatus(created,
                    w -> WorkloadConditions.pending(w, "WaitingForQuota", "waiting", Instant.now()));
            assertThat(written.changed()).isTrue();
            assertThat(requests).containsExactly(
                    "PATCH /apis/kueue.x-k8s.io/v1beta2/namespaces/writes/workloads/one-request/status");

            requests.clear();
            GenericKubernetesResource next = Serialization.clone(cachedJob);
            Cluster.spec(next).put("parallelism", 2);
            writes.jobPatch(new BatchJobKind(), cachedJob, next);
            assertThat(requests).containsExactly("PATCH /apis/batch/v1/namespaces/writes/jobs/one-request");
        }
        assertThat(Cluster.isFalse(client.resources(Workload.class).inNamespace(NS).withName("one-request").get(),
                "QuotaReserved", "WaitingForQuota")).isTrue();
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName("one-request").get().getSpec().getParallelism())
                .isEqualTo(2);
    }

    /** A Workload in {@value #NS} with no queue name: the controller only marks it misconfigured. */
    private static Workload workloadWithoutQueue(String name) {
        return Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: %s, namespace: writes}
                spec:
                  podSets:
                  - name: main
                    count: 1
                    template: {spec: {containers: [{name: c, image: busybox}]}}
                """.formatted(name));
    }
}
