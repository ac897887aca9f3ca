package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each kind's PodsReady, read from status objects written as the kinds' own controllers write them (batch/v1 JobStatus,
 * JobSet's ReplicatedJobStatus, the training operator's ReplicaStatus, KubeRay's RayClusterStatus, the Spark operator's
 * SparkApplicationStatus, Argo's WorkflowStatus): not ready while pods start, ready once all are, not ready again when
 * one is lost.
 */
class PodsReadyTest {

    private static GenericKubernetesResource withStatus(GenericKubernetesResource job, String statusYaml) {
        GenericKubernetesResource copy = Manifests.copy(job);
        copy.getAdditionalProperties().put("status", Manifests.parse(statusYaml).getAdditionalProperties());
        return copy;
    }

    /** The YAML's top-level keys become the status object (parse reads them as additional properties). */
    private static boolean ready(JobKind kind, GenericKubernetesResource job, String statusYaml) {
        return kind.podsReady(withStatus(job, statusYaml));
    }

    @Test
    void jobCountsReadyAndSucceededPodsAgainstParallelism() {
        BatchJobKind kind = new BatchJobKind();
        GenericKubernetesResource job = Manifests.ackSeed("job-queued.yaml");
        Map<String, Object> spec = PodTemplateJobKind.spec(job);
        spec.put("parallelism", 4);
        spec.put("completions", 8);
        assertThat(kind.podsReady(job)).as("no status yet").isFalse();
        assertThat(ready(kind, job, "active: 4\nready: 3\nstartTime: '2025-01-01T00:00:00Z'\n")).isFalse();
        assertThat(ready(kind, job, "active: 4\nready: 4\n")).isTrue();
        assertThat(ready(kind, job, "active: 2\nready: 2\nsucceeded: 2\n")).as("done pods count").isTrue();
        assertThat(ready(kind, job, "active: 3\nready: 3\nuncountedTerminatedPods:\n  succeeded: [a1b2]\n"))
                .as("succeeded but not yet counted").isTrue();
        assertThat(ready(kind, job, "active: 4\nready: 3\nfailed: 1\n")).as("a pod lost").isFalse();
        spec.put("completions", 2);
        assertThat(ready(kind, job, "active: 2\nready: 2\n")).as("completions below parallelism").isTrue();
    }

    @Test
    void jobSetCountsReadyChildJobsAgainstReplicas() {
        JobSetKind kind = new JobSetKind();
        GenericKubernetesResource twoSlices = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-2slice");
        assertThat(ready(kind, twoSlices, """
                replicatedJobsStatus:
                - {name: slice, ready: 1, succeeded: 0, failed: 0, active: 2, suspended: 0}
                """)).as("one of two slices ready").isFalse();
        assertThat(ready(kind, twoSlices, """
                replicatedJobsStatus:
                - {name: slice, ready: 2, succeeded: 0, failed: 0, active: 2, suspended: 0}
                conditions: []
                restarts: 0
                """)).isTrue();
        assertThat(ready(kind, twoSlices, """
                replicatedJobsStatus:
                - {name: slice, ready: 1, succeeded: 1, failed: 0, active: 1, suspended: 0}
                """)).as("a finished slice counts").isTrue();
        assertThat(ready(kind, twoSlices, """
                replicatedJobsStatus:
                - {name: slice, ready: 0, succeeded: 0, failed: 0, active: 0, suspended: 2}
                """)).isFalse();
    }

    @Test
    void kubeflowJobsWaitForEveryReplicaType() {
        PyTorchJobKind kind = new PyTorchJobKind(); // Master 1, Worker 3
        GenericKubernetesResource job = Manifests.ackSeed("pytorchjob-queued.yaml");
        String masterOnly = """
                conditions:
                - {type: Created, status: "True", reason: PyTorchJobCreated}
                - {type: Running, status: "True", reason: PyTorchJobRunning}
                replicaStatuses:
                  Master: {active: 1}
                  Worker: {active: 1}
                """;
        assertThat(ready(kind, job, masterOnly)).as("Running condition but workers still pending").isFalse();
        assertThat(ready(kind, job, """
                replicaStatuses:
                  Master: {active: 1}
                  Worker: {active: 3}
                """)).isTrue();
        assertThat(ready(kind, job, """
                replicaStatuses:
                  Master: {active: 1}
                  Worker: {active: 2, succeeded: 1}
                """)).isTrue();
        MPIJobKind mpi = new MPIJobKind(); // Launcher 1, Worker 2
        GenericKubernetesResource mpiJob = Manifests.ackSeed("mpijob-queued.yaml");
        assertThat(ready(mpi, mpiJob, "replicaStatuses:\n  Worker: {active: 2}\n")).as("no launcher yet").isFalse();
        assertThat(ready(mpi, mpiJob, "replicaStatuses:\n  Launcher: {active: 1}\n  Worker: {active: 2}\n")).isTrue();
        assertThat(ready(new TFJobKind(), Manifests.ackSeed("tfjob-queued.yaml"), "replicaStatuses: {}\n")).isFalse();
    }

    @Test
    void rayJobFollowsItsClusterState() {
        RayJobKind kind = new RayJobKind();
        GenericKubernetesResource job = Manifests.ackSeed("rayjob-queued.yaml");
        assertThat(ready(kind, job, """
                jobDeploymentStatus: Initializing
                rayClusterName: rayjob-sample-raycluster-x7k2p
                rayClusterStatus: {desiredWorkerReplicas: 2, availableWorkerReplicas: 1}
                """)).isFalse();
        assertThat(ready(kind, job, """
                jobDeploymentStatus: Running
                jobStatus: RUNNING
                rayClusterStatus: {state: ready, desiredWorkerReplicas: 2, readyWorkerReplicas: 2}
                """)).isTrue();
        assertThat(ready(kind, job, "rayClusterStatus: {state: suspended}\n")).isFalse();
    }

    @Test
    void sparkApplicationNeedsTheDriverAndEveryExecutor() {
        SparkApplicationKind kind = new SparkApplicationKind(); // instances: 2
        GenericKubernetesResource app = Manifests.ackSeed("spark-queued.yaml");
        assertThat(ready(kind, app, """
                applicationState: {state: RUNNING}
                driverInfo: {podName: spark-pi-driver}
                executorState: {spark-pi-exec-1: RUNNING, spark-pi-exec-2: PENDING}
                """)).as("driver runs, an executor cannot be scheduled").isFalse();
        assertThat(ready(kind, app, """
                applicationState: {state: RUNNING}
                executorState: {spark-pi-exec-1: RUNNING, spark-pi-exec-2: RUNNING}
                """)).isTrue();
        assertThat(ready(kind, app, """
                applicationState: {state: SUBMITTED}
                executorState: {spark-pi-exec-1: RUNNING, spark-pi-exec-2: RUNNING}
                """)).isFalse();
    }

    @Test
    void argoWorkflowIsReadyOnceAPodStepRuns() {
        ArgoWorkflowKind kind = new ArgoWorkflowKind();
        GenericKubernetesResource wf = Manifests.ackSeed("argo-workflow-queued.yaml");
        assertThat(ready(kind, wf, """
                phase: Running
                startedAt: '2025-01-01T00:00:00Z'
                nodes:
                  wf-abc: {id: wf-abc, type: Steps, phase: Running}
                  wf-abc-1: {id: wf-abc-1, type: Pod, phase: Pending}
                """)).as("its first pod cannot start").isFalse();
        assertThat(ready(kind, wf, """
                phase: Running
                nodes:
                  wf-abc: {id: wf-abc, type: Steps, phase: Running}
                  wf-abc-1: {id: wf-abc-1, type: Pod, phase: Succeeded}
                  wf-abc-2: {id: wf-abc-2, type: Pod, phase: Pending}
                """)).isTrue();
        assertThat(ready(kind, wf, "phase: Pending\n")).isFalse();
    }
}
