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
import java.time.Instant;
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
        Workload wl = Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: no-queue, namespace: writes}
                spec:
                  podSets:
                  - name: main
                    count: 1
                    template: {spec: {containers: [{name: c, image: busybox}]}}
                """);
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
}
