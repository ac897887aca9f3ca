package dev.sluice.controller.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.Cluster;
import dev.sluice.controller.Queues;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.jobs.BatchJobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
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

    /**
     * A JSON patch computed on a copy whose field is gone since (kube-apiserver 1.36's Job controller clears a suspended
     * Job's start time) does not apply: the server answers 422 with a generic message before it compares the
     * resourceVersion, and the report names what was sent. The merge patch that clears the start time applies either
     * way: on the stale copy it is a conflict (409, the next event decides), on the fresh one it changes nothing.
     */
    @Test
    void aPatchOfAFieldThatIsGoneIsRefusedAsKubeApiserverRefusesItAndTheStartTimeClearIsNot() {
        new Cluster(client).namespace(NS);
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName("start-time"); // no queue label: Sluice leaves it alone
        client.batch().v1().jobs().inNamespace(NS).resource(job).create();
        client.batch().v1().jobs().inNamespace(NS).withName("start-time").editStatus(j -> {
            j.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder()
                    .withStartTime("2026-12-01T10:00:00Z").build());
            return j;
        });
        GenericKubernetesResource stale = client.genericKubernetesResources("batch/v1", "Job").inNamespace(NS)
                .withName("start-time").get();
        // the Job controller clears it first
        client.batch().v1().jobs().inNamespace(NS).withName("start-time").editStatus(j -> {
            j.getStatus().setStartTime(null);
            return j;
        });
        BatchJobKind kind = new BatchJobKind();
        Writes writes = new Writes(client);

        GenericKubernetesResource withoutStartTime = Serialization.clone(stale);
        Cluster.status(withoutStartTime).remove("startTime");
        var patch = JobWrites.patch(stale, withoutStartTime);
        assertThatThrownBy(() -> client.genericKubernetesResources("batch/v1", "Job").inNamespace(NS)
                .resource(Writes.stub(stale)).subresource("status")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON), patch.toString()))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("the server rejected our request due to an error in our request");
                    assertThat(WriteFailures.describe(new RefusedWrite(e, RefusedWrite.jsonPatch(patch)))).isEqualTo(
                            "HTTP 422 (Invalid): the server rejected our request due to an error in our request; "
                                    + "sent: JSON patch: replace /metadata/resourceVersion, remove /status/startTime");
                });

        assertThatThrownBy(() -> writes.clearJobStartTime(kind, stale))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(Writes.isConflict(e)).isTrue());
        GenericKubernetesResource fresh = client.genericKubernetesResources("batch/v1", "Job").inNamespace(NS)
                .withName("start-time").get();
        writes.clearJobStartTime(kind, fresh);
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName("start-time").get().getStatus().getStartTime())
                .isNull();
    }

    /** The report of a refusal says what the server said (message, causes) and what the write sent. */
    @Test
    void aRefusalIsReportedInTheServersWordsWithItsCausesAndWhatWasSent() {
        var status = new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(422).withReason("Invalid")
                .withMessage("Job.batch \"low\" is invalid: spec.template: Invalid value: \"...\": field is immutable")
                .withNewDetails().withName("low").withKind("Job")
                .addNewCause().withField("spec.template").withReason("FieldValueInvalid")
                .withMessage("Invalid value: \"...\": field is immutable").endCause()
                .addNewCause().withField("spec.parallelism").withReason("FieldValueInvalid")
                .withMessage("must be greater than or equal to 0").endCause()
                .endDetails().build();
        var answer = new KubernetesClientException("Failure executing: PATCH ...", 422, status);
        var ops = Serialization.jsonMapper().createArrayNode();
        ops.addObject().put("op", "replace").put("path", "/metadata/resourceVersion").put("value", "7");
        ops.addObject().put("op", "replace").put("path", "/spec/template/spec/nodeSelector").putObject("value");

        assertThat(WriteFailures.describe(answer)).isEqualTo("HTTP 422 (Invalid): Job.batch \"low\" is invalid: "
                + "spec.template: Invalid value: \"...\": field is immutable (causes: spec.template [FieldValueInvalid]; "
                + "spec.parallelism: must be greater than or equal to 0 [FieldValueInvalid])");
        assertThat(WriteFailures.describe(new RefusedWrite(answer, RefusedWrite.jsonPatch(ops))))
                .endsWith("; sent: JSON patch: replace /metadata/resourceVersion, replace /spec/template/spec/nodeSelector");
        assertThat(WriteFailures.describe(new RefusedWrite(answer, RefusedWrite.mergePatch(Writes.clearStartTime(
                new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder().withNewMetadata()
                        .withResourceVersion("7").endMetadata().build())))))
                .endsWith("; sent: JSON merge patch: {\"metadata\":{\"resourceVersion\":\"7\"},\"status\":{\"startTime\":null}}");
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
