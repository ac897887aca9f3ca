package dev.sluice.controller.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.apiserver.JobRules;
import dev.sluice.apiserver.JobSetRules;
import dev.sluice.controller.Cluster;
import dev.sluice.controller.write.JobWrites;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.PodSetStart;
import dev.sluice.jobs.PodSetTemplate;
import dev.sluice.jobs.RestoreWait;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each job write the controller builds ({@link JobWrites}, {@link JobKind#start}), sent as the JSON patch it sends,
 * against what the API server accepts: kube-apiserver's rules for a batch/v1 Job's template and JobSet's webhook
 * rules ({@link JobRules}, {@link JobSetRules}, written from their sources). The one-write stop Sluice made before
 * (hold and restore together) is refused, as a real server refused it.
 */
class JobWritesContractTest {

    private static final com.fasterxml.jackson.databind.ObjectMapper YAML =
            new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
    private static final Map<String, String> FLAVOR = Map.of("node-pool", "batch");
    private final JobKinds kinds = JobKinds.standard();

    @Test
    void aJobIsStartedWhileHeldAndStoppedInTheOrderTheApiServerAccepts() {
        GenericKubernetesResource submitted = load("/seeds/ack-kube-queue/job-queued.yaml");
        JobKind kind = kinds.forJob(submitted).orElseThrow();
        List<PodSetTemplate> originals = kind.podSets(submitted);

        // start: held, never started: the scheduling directives may change
        GenericKubernetesResource started = Serialization.clone(submitted);
        kind.start(started, List.of(new PodSetStart("main", FLAVOR, List.of(new TolerationBuilder().withKey("t")
                .withOperator("Exists").build()), null)));
        assertThat(job(submitted, started)).isEmpty();

        // running: the Job controller set a start time and has an active pod
        GenericKubernetesResource running = withStatus(started, Map.of("startTime", "2026-12-01T10:00:00Z", "active", 1));
        GenericKubernetesResource oneWrite = Serialization.clone(running);
        kind.restore(oneWrite, originals); // what Sluice wrote before: refused with 422
        assertThat(job(running, oneWrite)).get().satisfies(r -> {
            assertThat(r.code()).isEqualTo(422);
            assertThat(r.body()).contains("spec.template").contains("field is immutable");
        });

        // first write of the stop: the hold and the mark alone are accepted
        GenericKubernetesResource held = JobWrites.holdToStop(kind, running);
        assertThat(job(running, held)).isEmpty();
        assertThat(held.getMetadata().getAnnotations()).containsEntry(WellKnown.STOPPING, "true");
        assertThat(JobSync.stopping(held)).isTrue();

        // held but with its start time: the kind says to clear it first, and the restore would indeed be refused
        assertThat(kind.restoreWait(held)).contains(RestoreWait.START_TIME);
        GenericKubernetesResource restoredTooEarly = JobWrites.restoreAfterStop(kind, held, originals);
        assertThat(job(held, restoredTooEarly)).isPresent();

        // start time cleared, a pod still active (1.36 refuses then): wait for the Job controller
        GenericKubernetesResource noStartTime = withStatus(held, Map.of("active", 1));
        assertThat(kind.restoreWait(noStartTime)).contains(RestoreWait.ACTIVE_PODS);
        assertThat(job(noStartTime, JobWrites.restoreAfterStop(kind, noStartTime, originals))).isPresent();

        // stopped: the second write puts the template back and is accepted
        GenericKubernetesResource stopped = withStatus(held, Map.of("active", 0));
        assertThat(kind.restoreWait(stopped)).isEmpty();
        GenericKubernetesResource restored = JobWrites.restoreAfterStop(kind, stopped, originals);
        assertThat(job(stopped, restored)).isEmpty();
        assertThat(JobSync.stopping(restored)).isFalse();
        assertThat(kind.podSets(restored).get(0).template()).isEqualTo(originals.get(0).template());
        assertThat(kind.isSuspended(restored)).isTrue();
    }

    @Test
    void aJobSetIsStartedAndStoppedWithinJobSetsWebhookRules() {
        GenericKubernetesResource submitted = load("/seeds/gke-multislice/jobset-low-priority-standard.yaml");
        JobKind kind = kinds.forJob(submitted).orElseThrow();
        kind.hold(submitted);
        List<PodSetTemplate> originals = kind.podSets(submitted);

        GenericKubernetesResource started = Serialization.clone(submitted);
        kind.start(started, List.of(new PodSetStart("slice", FLAVOR, List.of(), null)));
        assertThat(jobSet(submitted, started)).isEmpty();

        GenericKubernetesResource held = JobWrites.holdToStop(kind, started);
        assertThat(jobSet(started, held)).isEmpty();
        assertThat(kind.restoreWait(held)).isEmpty();
        GenericKubernetesResource restored = JobWrites.restoreAfterStop(kind, held, originals);
        assertThat(jobSet(held, restored)).isEmpty();
        assertThat(kind.podSets(restored).get(0).template()).isEqualTo(originals.get(0).template());

        // a change JobSet's webhook never allows (the image) is refused, suspended or not: the rule can say no
        GenericKubernetesResource otherImage = Serialization.clone(held);
        Cluster.spec(otherImage).put("replicatedJobs", List.of(Map.of("name", "slice", "replicas", 1, "template",
                Map.of("spec", Map.of("template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "x",
                        "image", "other")))))))));
        assertThat(jobSet(held, otherImage)).get().satisfies(r -> assertThat(r.code()).isEqualTo(403));
    }

    /** kube-apiserver's answer to the patch the controller would send to take a Job from {@code before} to {@code after}. */
    private static Optional<ApiServerRules.Refusal> job(GenericKubernetesResource before, GenericKubernetesResource after) {
        return JobRules.update(before.getMetadata().getName(), json(before), sent(before, after));
    }

    private static Optional<ApiServerRules.Refusal> jobSet(GenericKubernetesResource before,
            GenericKubernetesResource after) {
        return JobSetRules.update(before.getMetadata().getName(), json(before), sent(before, after));
    }

    /** What the server stores after the controller's JSON patch: the patch applied to {@code before}. */
    private static JsonNode sent(GenericKubernetesResource before, GenericKubernetesResource after) {
        return JsonPatch.apply(JobWrites.patch(before, after), json(before));
    }

    private static JsonNode json(GenericKubernetesResource job) {
        return Serialization.jsonMapper().valueToTree(job);
    }

    private static GenericKubernetesResource withStatus(GenericKubernetesResource job, Map<String, Object> status) {
        GenericKubernetesResource copy = Serialization.clone(job);
        copy.getAdditionalProperties().put("status", new java.util.LinkedHashMap<>(status));
        return copy;
    }

    private static GenericKubernetesResource load(String resource) {
        try (InputStream in = JobWritesContractTest.class.getResourceAsStream(resource)) {
            GenericKubernetesResource job = YAML.readerFor(GenericKubernetesResource.class)
                    .<GenericKubernetesResource>readValues(in).readAll().get(0);
            job.getMetadata().setName(job.getMetadata().getName() == null ? "j" : job.getMetadata().getName());
            job.getMetadata().setNamespace("ns");
            job.getMetadata().setResourceVersion("7");
            return job;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
