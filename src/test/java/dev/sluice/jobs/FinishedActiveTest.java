package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** finished() and isActive() of the ack-kube-queue kinds, read from each project's status. */
class FinishedActiveTest {
    private final JobKinds kinds = JobKinds.standard();

    private GenericKubernetesResource withStatus(String file, String statusYaml) {
        GenericKubernetesResource job = Manifests.ackSeed(file);
        job.setAdditionalProperty("status", Manifests.parse("status: " + statusYaml).getAdditionalProperties()
                .get("status"));
        return job;
    }

    @ParameterizedTest
    @CsvSource({"tfjob-queued.yaml", "pytorchjob-queued.yaml", "mpijob-queued.yaml"})
    void kubeflowConditionsAndReplicaStatuses(String file) {
        JobKind kind = kinds.forJob(Manifests.ackSeed(file)).orElseThrow();
        GenericKubernetesResource running = withStatus(file, """
                {conditions: [{type: Created, status: "True"}, {type: Running, status: "True"}],
                 replicaStatuses: {Worker: {active: 2}}}""");
        assertThat(kind.finished(running)).isEmpty();
        assertThat(kind.isActive(running)).isTrue();

        GenericKubernetesResource done = withStatus(file, """
                {conditions: [{type: Running, status: "False"},
                              {type: Succeeded, status: "True", reason: JobSucceeded, message: all done}],
                 replicaStatuses: {Worker: {succeeded: 2, active: 0}}}""");
        assertThat(kind.finished(done)).hasValueSatisfying(f -> {
            assertThat(f.succeeded()).isTrue();
            assertThat(f.reason()).isEqualTo("JobSucceeded");
            assertThat(f.message()).isEqualTo("all done");
        });
        assertThat(kind.isActive(done)).isFalse();

        GenericKubernetesResource failed = withStatus(file, "{conditions: [{type: Failed, status: \"True\"}]}");
        assertThat(kind.finished(failed)).hasValueSatisfying(f -> assertThat(f.succeeded()).isFalse());
        assertThat(kind.isActive(Manifests.ackSeed(file))).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
        "Running, RUNNING, true, -",
        "Suspended, '', false, -",
        "Complete, SUCCEEDED, false, true",
        "Failed, FAILED, false, false",
        "Complete, FAILED, false, false",
    })
    void rayJobDeploymentAndJobStatus(String deployment, String jobStatus, boolean active, String succeeded) {
        GenericKubernetesResource job = withStatus("rayjob-queued.yaml",
                "{jobDeploymentStatus: " + deployment + ", jobStatus: '" + jobStatus + "', message: m}");
        JobKind kind = kinds.forJob(job).orElseThrow();
        assertThat(kind.isActive(job)).isEqualTo(active);
        if (succeeded.equals("-")) {
            assertThat(kind.finished(job)).isEmpty();
        } else {
            assertThat(kind.finished(job)).hasValueSatisfying(f -> {
                assertThat(f.succeeded()).isEqualTo(Boolean.parseBoolean(succeeded));
                assertThat(f.message()).isEqualTo("m");
            });
        }
        assertThat(kind.isActive(Manifests.ackSeed("rayjob-queued.yaml"))).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
        "SUBMITTED, true, -",
        "RUNNING, true, -",
        "SUSPENDED, false, -",
        "COMPLETED, false, true",
        "FAILED, false, false",
        "SUBMISSION_FAILED, false, false",
    })
    void sparkApplicationState(String state, boolean active, String succeeded) {
        GenericKubernetesResource app = withStatus("spark-queued.yaml",
                "{applicationState: {state: " + state + ", errorMessage: driver exited 1}}");
        JobKind kind = kinds.forJob(app).orElseThrow();
        assertThat(kind.isActive(app)).isEqualTo(active);
        if (succeeded.equals("-")) {
            assertThat(kind.finished(app)).isEmpty();
        } else {
            assertThat(kind.finished(app)).hasValueSatisfying(f -> {
                assertThat(f.succeeded()).isEqualTo(Boolean.parseBoolean(succeeded));
                assertThat(f.reason()).isEqualTo(state);
            });
        }
    }

    @ParameterizedTest
    @CsvSource({"Succeeded, true", "Failed, false", "Error, false"})
    void argoWorkflowPhase(String phase, boolean succeeded) {
        GenericKubernetesResource wf = withStatus("argo-workflow-queued.yaml", "{phase: " + phase + "}");
        JobKind kind = kinds.forJob(wf).orElseThrow();
        assertThat(kind.finished(wf)).hasValueSatisfying(f -> {
            assertThat(f.succeeded()).isEqualTo(succeeded);
            assertThat(f.reason()).isEqualTo(phase);
        });
    }

    @Test
    void argoWorkflowIsActiveWhilePodNodesRunEvenWhenRunningPhaseIsSuspended() {
        GenericKubernetesResource held = withStatus("argo-workflow-queued.yaml", "{phase: Running, nodes: {"
                + "steps-1: {type: Steps, phase: Running}}}");
        JobKind kind = kinds.forJob(held).orElseThrow();
        assertThat(kind.finished(held)).isEmpty();
        assertThat(kind.isActive(held)).as("a suspended workflow is Running but has no pods").isFalse();

        GenericKubernetesResource running = withStatus("argo-workflow-queued.yaml", "{phase: Running, nodes: {"
                + "steps-1: {type: Steps, phase: Running}, steps-2: {type: Pod, phase: Pending}}}");
        assertThat(kind.isActive(running)).isTrue();
        GenericKubernetesResource done = withStatus("argo-workflow-queued.yaml", "{phase: Running, nodes: {"
                + "steps-2: {type: Pod, phase: Succeeded}}}");
        assertThat(kind.isActive(done)).isFalse();
    }
}
