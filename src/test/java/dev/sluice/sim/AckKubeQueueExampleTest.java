package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** examples/ack-kube-queue: the seven seeds, held the ack-kube-queue way without a queue label. */
class AckKubeQueueExampleTest {

    private static final String EXAMPLE = "examples/ack-kube-queue";

    private static double time(JsonNode n) {
        return n.path("time").asDouble();
    }

    private static double admittedAt(Sim sim, String job) {
        return time(sim.events("Admitted", job).get(0));
    }

    @Test
    void theSevenSeedsJoinLocalQueueDefaultAndRunInQuotaOrder() {
        Sim sim = Sim.run("-o", "json", EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();
        Map<String, Double> admitted = Map.of(
                "Job/default/pi-8gkn4", 0.0,
                "SparkApplication/spark-operator/spark-pi-suspend-86h59", 0.0,
                "TFJob/default/job1", 0.0,
                "RayJob/default/rayjob-sample", 0.0,
                "PyTorchJob/default/pytorch-simple", 40.0,
                "MPIJob/default/tensorflow-benchmarks", 60.0,
                "Workflow/default/steps-cb7np", 100.0);
        admitted.forEach((job, at) -> assertThat(admittedAt(sim, job)).as(job).isEqualTo(at));
        JsonNode workflow = sim.events("Admitted", "Workflow/default/steps-cb7np").get(0);
        assertThat(workflow.path("flavors").path("main").path("cpu").asText()).isEqualTo("default-flavor");
        assertThat(sim.events("Inadmissible", "Workflow/default/steps-cb7np").get(0).path("message").asText())
                .contains("pod set main: insufficient unused quota for cpu");
        assertThat(sim.summary().path("finished").asInt()).isEqualTo(7);
        assertThat(sim.summary().path("makespan").asDouble()).isEqualTo(150);
    }

    @Test
    void theTableShowsQueueDefault() {
        Sim sim = Sim.run(EXAMPLE);
        assertThat(sim.out()).containsPattern("spark-operator +sparkapplication-spark-pi-suspend-\\S+ +default +ml-queue");
        assertThat(sim.out()).containsPattern("default +workflow-steps-\\S+ +default +ml-queue");
    }

    @Test
    void aNamespaceWithoutLocalQueueDefaultIsNamed(@TempDir Path dir) throws Exception {
        Path queues = dir.resolve("1-queues.yaml");
        Files.writeString(queues, Files.readString(Path.of(EXAMPLE, "1-queues.yaml"))
                .replace("  name: default\n  namespace: spark-operator\n", "  name: spark\n  namespace: spark-operator\n"));
        Files.copy(Path.of(EXAMPLE, "7-spark-queued.yaml"), dir.resolve("7-spark-queued.yaml"));
        Sim sim = Sim.run(dir.toString());
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.err()).contains("7-spark-queued.yaml").contains("metadata.labels[kueue.x-k8s.io/queue-name]")
                .contains("held the ack-kube-queue way, so it joins LocalQueue \"default\" of namespace spark-operator");
    }

    @Test
    void aJobThatIsNotHeldStillNeedsTheLabel(@TempDir Path dir) throws Exception {
        Files.copy(Path.of(EXAMPLE, "1-queues.yaml"), dir.resolve("1-queues.yaml"));
        Files.writeString(dir.resolve("2-job.yaml"), Files.readString(Path.of(EXAMPLE, "2-job-queued.yaml"))
                .replace("suspend: true", "suspend: false"));
        Sim sim = Sim.run(dir.toString());
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.err()).contains("metadata.labels[kueue.x-k8s.io/queue-name]: missing; a job without a queue label");
    }

    @Test
    void aWorkflowWithoutMinResourcesIsBadInputNamingTheAnnotation(@TempDir Path dir) throws Exception {
        Files.copy(Path.of(EXAMPLE, "1-queues.yaml"), dir.resolve("1-queues.yaml"));
        String workflow = Files.readString(Path.of(EXAMPLE, "8-argo-workflow-queued.yaml"));
        Files.writeString(dir.resolve("2-missing.yaml"), workflow.replace("    kube-queue/min-resources: |\n      cpu: 5\n      memory: 5G\n", ""));
        Files.writeString(dir.resolve("3-garbled.yaml"), workflow.replace("generateName: steps-", "name: garbled")
                .replace("      cpu: 5\n      memory: 5G\n", "      [not, a, resource, list]\n"));
        Sim sim = Sim.run(dir.toString());
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.err()).contains("2-missing.yaml").contains("metadata.annotations[kube-queue/min-resources]: is missing")
                .contains("3-garbled.yaml").contains("is not a ResourceList");
    }
}
