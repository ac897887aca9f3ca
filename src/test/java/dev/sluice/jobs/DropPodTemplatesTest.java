package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 18: a finished job is cached without its pod templates. Every read the controller makes of a finished job
 * answers the same on the trimmed copy as on the whole one, for every kind, held or running, succeeded or failed; the
 * templates are really gone (the copy is smaller), and the kinds that are not pod-template based keep everything.
 */
class DropPodTemplatesTest {
    private final JobKinds kinds = JobKinds.standard();

    private static GenericKubernetesResource seed(String file) {
        return file.startsWith("jobs/") ? Manifests.load(file.substring("jobs/".length())).get(0)
                : Manifests.ackSeed(file);
    }

    private static GenericKubernetesResource withStatus(GenericKubernetesResource job, String statusYaml) {
        GenericKubernetesResource copy = Serialization.clone(job);
        copy.setAdditionalProperty("status", Manifests.parse("status: " + statusYaml).getAdditionalProperties()
                .get("status"));
        return copy;
    }

    /** Everything read from a cached job once it is finished (JobSync, PodsReadySync, retention, forecast). */
    private static List<Object> reads(JobKind kind, GenericKubernetesResource job) {
        List<Function<GenericKubernetesResource, Object>> readers = List.of(
                kind::finished, kind::isSuspended, kind::heldTheAckWay, kind::isActive, kind::podsReady,
                kind::restoreWait, kind::handles,
                j -> j.getMetadata().getLabels(), j -> j.getMetadata().getAnnotations(),
                j -> j.getMetadata().getOwnerReferences(), j -> j.getMetadata().getResourceVersion(),
                j -> j.getMetadata().getUid(), DropPodTemplatesTest::activeDeadlineSeconds);
        List<Object> out = new ArrayList<>();
        for (var read : readers) {
            try {
                out.add(read.apply(job));
            } catch (RuntimeException e) {
                out.add(e.getClass().getName() + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** What the forecast reads from a job's spec outside its templates. */
    private static Object activeDeadlineSeconds(GenericKubernetesResource job) {
        return job.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec ? spec.get("activeDeadlineSeconds")
                : null;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "job-queued.yaml | {conditions: [{type: Complete, status: \"True\"}], succeeded: 1, ready: 0, active: 0}",
        "job-queued.yaml | {conditions: [{type: Failed, status: \"True\", reason: BackoffLimitExceeded}], failed: 3,"
                + " startTime: \"2026-01-01T00:00:00Z\"}",
        "jobs/job-queued.yaml | {conditions: [{type: Complete, status: \"True\"}], succeeded: 2}",
        "jobs/jobset-low-priority-standard.yaml | {conditions: [{type: Completed, status: \"True\"}],"
                + " replicatedJobsStatus: [{name: slice, succeeded: 1, active: 0, ready: 0}]}",
        "jobs/jobsets-multislice-standard.yaml | {conditions: [{type: Failed, status: \"True\", message: boom}]}",
        "tfjob-queued.yaml | {conditions: [{type: Succeeded, status: \"True\"}], replicaStatuses: {Worker: {succeeded: 2}}}",
        "pytorchjob-queued.yaml | {conditions: [{type: Failed, status: \"True\"}]}",
        "mpijob-queued.yaml | {conditions: [{type: Succeeded, status: \"True\"}]}",
        "rayjob-queued.yaml | {jobDeploymentStatus: Complete, jobStatus: SUCCEEDED, message: m}",
    })
    void aFinishedJobAnswersEveryReadTheSameWithoutItsTemplates(String file, String status) {
        for (boolean held : new boolean[] {true, false}) {
            GenericKubernetesResource whole = withStatus(seed(file), status);
            JobKind kind = kinds.forJob(whole).orElseThrow();
            if (!held) {
                kind.start(whole, kind.podSets(whole).stream()
                        .map(ps -> new PodSetStart(ps.name(), Map.of(), List.of(), null)).toList());
            }
            assertThat(kind.finished(whole)).as("finished").isPresent();
            GenericKubernetesResource trimmed = Serialization.clone(whole);

            assertThat(kind.dropPodTemplates(trimmed)).as("templates dropped").isTrue();

            assertThat(reads(kind, trimmed)).as(file + (held ? " held" : " running")).isEqualTo(reads(kind, whole));
            int before = Serialization.asJson(whole).length();
            int after = Serialization.asJson(trimmed).length();
            assertThat(after).as("bytes of JSON").isLessThan(before);
            assertThat(Serialization.asJson(trimmed)).doesNotContain("\"containers\"");
            assertThat(kind.dropPodTemplates(trimmed)).as("nothing left to drop").isFalse();
        }
    }

    @ParameterizedTest
    @CsvSource({"spark-queued.yaml", "argo-workflow-queued.yaml"})
    void kindsWithoutPodTemplatesKeepEverything(String file) {
        GenericKubernetesResource job = seed(file);
        JobKind kind = kinds.forJob(job).orElseThrow();
        String before = Serialization.asJson(job);
        assertThat(kind.dropPodTemplates(job)).isFalse();
        assertThat(Serialization.asJson(job)).isEqualTo(before);
    }

    @ParameterizedTest
    @CsvSource({"job-queued.yaml", "tfjob-queued.yaml"})
    void anUnreadableJobIsKeptWhole(String file) {
        GenericKubernetesResource job = seed(file);
        JobKind kind = kinds.forJob(job).orElseThrow();
        kind.podSets(job).size();
        // no container in the first pod template: podSets refuses it, and its placeholder Workload quotes why
        String json = Serialization.asJson(job).replaceFirst("\"containers\":\\[", "\"containerz\":[");
        GenericKubernetesResource broken = Serialization.unmarshal(json, GenericKubernetesResource.class);
        String before = Serialization.asJson(broken);
        assertThat(kind.dropPodTemplates(broken)).isFalse();
        assertThat(Serialization.asJson(broken)).isEqualTo(before);
    }
}
