package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line end to end, in-process, on the examples and the seed manifests. */
class SimulateCommandTest {

    private static final String S3 = "JobSet/default/multislice-3slice";
    private static final String S1 = "JobSet/default/multislice-1slice";
    private static final String S2 = "JobSet/default/multislice-2slice";

    private static double time(JsonNode n) {
        return n.path("time").asDouble();
    }

    @Test
    void tutorialOrderRunsThreeSliceAloneThenTheOthersTogether() {
        Sim sim = Sim.run("--output", "json", "examples/gke-multislice");
        assertThat(sim.exit()).isZero();

        JsonNode admitted3 = sim.events("Admitted", S3).get(0);
        assertThat(time(admitted3)).isEqualTo(0);
        assertThat(admitted3.path("clusterQueue").asText()).isEqualTo("cluster-queue");
        assertThat(admitted3.path("flavors").path("slice").path("google.com/tpu").asText()).isEqualTo("vlp-24");
        for (String small : List.of(S1, S2)) {
            List<JsonNode> waits = sim.events("Inadmissible", small);
            assertThat(waits).hasSize(1);
            assertThat(time(waits.get(0))).isEqualTo(0);
            assertThat(waits.get(0).path("message").asText())
                    .startsWith("couldn't assign flavors to pod set slice: insufficient unused quota for google.com/tpu in flavor vlp-24");
            assertThat(sim.events("Admitted", small)).singleElement().satisfies(n -> assertThat(time(n)).isEqualTo(60));
        }
        assertThat(time(sim.events("Finished", S3).get(0))).isEqualTo(60);
        JsonNode summary = sim.summary();
        assertThat(summary.path("event").asText()).isEqualTo("Summary");
        assertThat(summary.path("makespan").asDouble()).isEqualTo(120);
        assertThat(summary.path("finished").asInt()).isEqualTo(3);
        assertThat(summary.path("pending").asInt()).isZero();
        assertThat(summary.path("preemptions").asInt()).isZero();
    }

    @Test
    void seedOrderRunsTheSmallOnesFirstAndThreeSliceWaits() {
        Sim sim = Sim.run("-o", "json", "--default-duration", "60s", "src/test/resources/sim/seed-order");
        assertThat(sim.exit()).isZero();
        assertThat(time(sim.events("Admitted", S1).get(0))).isEqualTo(0);
        assertThat(time(sim.events("Admitted", S2).get(0))).isEqualTo(0);
        assertThat(sim.events("Inadmissible", S3)).singleElement()
                .satisfies(n -> assertThat(n.path("message").asText()).endsWith("24 more needed"));
        assertThat(time(sim.events("Admitted", S3).get(0))).isEqualTo(60);
        assertThat(sim.summary().path("makespan").asDouble()).isEqualTo(120);
    }

    @Test
    void defaultDurationAppliesToJobsWithoutTheAnnotation() {
        Sim sim = Sim.run("-o", "json", "--default-duration", "90s", "src/test/resources/sim/seed-order");
        assertThat(time(sim.events("Admitted", S3).get(0))).isEqualTo(90);
        assertThat(sim.summary().path("makespan").asDouble()).isEqualTo(180);
    }

    @Test
    void preemptionExampleEvictsTheLowerPriorityJobAndRerunsItInFull() {
        Sim sim = Sim.run("-o", "json", "examples/preemption");
        assertThat(sim.exit()).isZero();
        JsonNode preempted = sim.events("Preempted", S3).get(0);
        assertThat(time(preempted)).isEqualTo(20);
        assertThat(preempted.path("message").asText()).startsWith("Preempted to accommodate a workload (UID: ")
                .endsWith("due to prioritization in the ClusterQueue; preemptor path: /cluster-queue;"
                        + " preemptee path: /cluster-queue")
                .doesNotContain("UID: ,");
        assertThat(time(sim.events("Admitted", "JobSet/default/low-priority").get(0))).isEqualTo(20);
        assertThat(sim.events("Admitted", S3)).extracting(SimulateCommandTest::time).containsExactly(0.0, 80.0);
        assertThat(time(sim.events("Finished", S3).get(0))).isEqualTo(140);
        assertThat(sim.summary().path("preemptions").asInt()).isEqualTo(1);
        assertThat(sim.summary().path("evictionsByReason").toString()).isEqualTo("{\"Preempted\":1}");
    }

    @Test
    void cohortExampleBorrowsThenReclaims() {
        Sim sim = Sim.run("-o", "json", "examples/cohort-borrowing");
        assertThat(sim.exit()).isZero();
        for (String job : List.of("Job/team-a/train-1", "Job/team-a/train-2", "Job/team-a/train-3")) {
            assertThat(time(sim.events("Admitted", job).get(0))).isEqualTo(0);
        }
        List<JsonNode> preempted = sim.lines().stream().filter(n -> n.path("event").asText().equals("Preempted")).toList();
        assertThat(preempted).singleElement().satisfies(n -> {
            assertThat(time(n)).isEqualTo(30);
            assertThat(n.path("message").asText()).endsWith("due to reclamation within the cohort;"
                    + " preemptor path: /ml/team-b-cq; preemptee path: /ml/team-a-cq");
        });
        assertThat(time(sim.events("Admitted", "Job/team-b/eval").get(0))).isEqualTo(30);
        JsonNode usage = sim.summary().path("clusterQueueUsage").path("team-a-cq").path("default-flavor/cpu");
        assertThat(usage.path("peak").asDouble()).isEqualTo(18);
    }

    @Test
    void flavorFallbackExampleUsesTheFirstFlavorThatFits() {
        Sim sim = Sim.run("-o", "json", "examples/flavor-fallback");
        assertThat(sim.exit()).isZero();
        assertThat(flavor(sim, "Job/default/etl-1")).isEqualTo("on-demand");
        assertThat(flavor(sim, "Job/default/etl-2")).isEqualTo("on-demand");
        assertThat(flavor(sim, "Job/default/etl-3")).isEqualTo("spot");
        assertThat(flavor(sim, "Job/default/spot-only")).isEqualTo("spot");
        assertThat(sim.events("Inadmissible", "Job/default/etl-5")).hasSize(1);
        assertThat(time(sim.events("Admitted", "Job/default/etl-5").get(0))).isEqualTo(30);
    }

    private static String flavor(Sim sim, String job) {
        return sim.events("Admitted", job).get(0).path("flavors").path("main").path("cpu").asText();
    }

    @Test
    void tableOutputShowsTimelineWorkloadsAndUsage() {
        Sim sim = Sim.run("examples/gke-multislice");
        assertThat(sim.exit()).isZero();
        assertThat(sim.out()).contains("TIME", "EVENT", "JOB", "CLUSTERQUEUE", "FLAVORS", "MESSAGE")
                .containsPattern("0s +Admitted +JobSet/default/multislice-3slice +cluster-queue +slice=vlp-24")
                .containsPattern("60s +Admitted +JobSet/default/multislice-1slice")
                .contains("NAME", "QUEUE", "RESERVED IN", "ADMITTED", "FINISHED", "AGE")
                .containsPattern("jobset-multislice-3slice-[0-9a-f]{5} +multislice-queue +cluster-queue +True +True")
                .containsPattern("cluster-queue +vlp-24 +google.com/tpu +24 +24 +24 +100%");
    }

    /** A workload still waiting at the end shows ADMITTED False, as Kueue v0.19's Admitted=False/NoReservation. */
    @Test
    void aWorkloadWaitingAtTheEndIsNotAdmitted() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("sim", ".yaml");
        java.nio.file.Files.writeString(f, """
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: multislice-4slice
                  labels:
                    kueue.x-k8s.io/queue-name: multislice-queue
                spec:
                  replicatedJobs:
                    - name: slice
                      replicas: 4
                      template:
                        spec:
                          parallelism: 2
                          completions: 2
                          template:
                            spec:
                              nodeSelector:
                                cloud.google.com/gke-tpu-accelerator: tpu-v5-lite-podslice
                                cloud.google.com/gke-tpu-topology: 2x4
                              containers:
                              - name: jax-tpu
                                image: python:3.8
                                resources:
                                  limits:
                                    google.com/tpu: 4
                """);
        try {
            Sim sim = Sim.run("examples/gke-multislice", f.toString());
            assertThat(sim.exit()).as(sim.err()).isZero();
            assertThat(sim.out())
                    .containsPattern("jobset-multislice-4slice-[0-9a-f]{5} +multislice-queue +False +[0-9]")
                    .containsPattern("jobset-multislice-1slice-[0-9a-f]{5} +multislice-queue +cluster-queue +True +True");
        } finally {
            java.nio.file.Files.delete(f);
        }
    }

    @Test
    void everyJsonLineIsAnObjectWithTheDesignFields() {
        Sim sim = Sim.run("-o", "json", "examples/preemption");
        List<JsonNode> lines = sim.lines();
        for (JsonNode n : lines.subList(0, lines.size() - 1)) {
            assertThat(n.isObject()).isTrue();
            assertThat(n.has("time") && n.has("event") && n.has("workload") && n.has("job")).as(n.toString()).isTrue();
            assertThat(n.path("event").asText()).isIn("Submitted", "Admitted", "Preempted", "Evicted", "Finished",
                    "Inadmissible");
        }
        JsonNode summary = lines.get(lines.size() - 1);
        for (String field : List.of("makespan", "admitted", "finished", "pending", "wallSeconds", "decisionsPerSecond",
                "averageWaitByPriorityClass")) {
            assertThat(summary.has(field)).as(field).isTrue();
        }
        assertThat(summary.path("averageWaitByPriorityClass").has("low-priority")).isTrue();
        assertThat(summary.path("averageWaitByPriorityClass").path("priority=0").asDouble()).isEqualTo(60);
    }

    @Test
    void twoRunsGiveTheSameOutput() {
        for (String[] args : List.of(new String[] {"-o", "json", "examples/cohort-borrowing"},
                new String[] {"examples/preemption"},
                new String[] {"-o", "json", "--generate", "kueue-baseline", "--scale", "0.02"})) {
            assertThat(withoutTimings(Sim.run(args).out())).isEqualTo(withoutTimings(Sim.run(args).out()));
        }
    }

    /** Real-time figures differ between runs; everything else must not. */
    private static String withoutTimings(String out) {
        return out.replaceAll("\"(wallSeconds|cpuSeconds|decisionsPerSecond)\": [0-9.]+", "\"$1\": _")
                .replaceAll("engine [0-9.]+s \\([0-9]+ decisions/s\\)", "engine _");
    }

    @Test
    void generatorReplaysKueuesBenchmarkScaledDown() {
        Sim sim = Sim.run("-o", "json", "--generate", "kueue-baseline", "--scale", "0.02");
        assertThat(sim.exit()).isZero();
        JsonNode summary = sim.summary();
        // 5 cohorts × 6 queues × (7 small + 2 medium + 1 large)
        assertThat(summary.path("workloads").asInt()).isEqualTo(300);
        assertThat(summary.path("finished").asInt()).isEqualTo(300);
        assertThat(summary.path("averageTimeToAdmissionByClass").has("small")).isTrue();
        assertThat(summary.path("averageTimeToAdmissionByClass").has("medium")).isTrue();
        assertThat(summary.path("averageTimeToAdmissionByClass").has("large")).isTrue();
        assertThat(summary.path("clusterQueueUsage").size()).isEqualTo(30);
        JsonNode one = summary.path("clusterQueueUsage").path("cq-0-0-cohort-0").path("rf/cpu");
        assertThat(one.path("nominal").asDouble()).isEqualTo(20);
        assertThat(one.path("peak").asDouble()).isLessThanOrEqualTo(120);
        // the first small workload of a queue is created after one interval, as Kueue's generator does
        assertThat(sim.events("Submitted", "Workload/cq-0-0-cohort-0/small-0-0-0").get(0).path("time").asDouble())
                .isEqualTo(0.1);
    }

    /** The generator with the engine's fair sharing on: every workload runs, and a second run decides alike. */
    @Test
    void generatorRunsWithFairSharingOn() {
        String[] args = {"-o", "json", "--generate", "kueue-baseline", "--scale", "0.02", "--fair-sharing"};
        Sim sim = Sim.run(args);
        assertThat(sim.exit()).isZero();
        assertThat(sim.summary().path("workloads").asInt()).isEqualTo(300);
        assertThat(sim.summary().path("finished").asInt()).isEqualTo(300);
        assertThat(withoutTimings(Sim.run(args).out())).isEqualTo(withoutTimings(sim.out()));
        assertThat(withoutTimings(sim.out()))
                .isNotEqualTo(withoutTimings(Sim.run("-o", "json", "--generate", "kueue-baseline", "--scale", "0.02")
                        .out()));
    }

    @Test
    void helpAndUsageErrors() {
        Sim help = Sim.run("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: simulate", "--default-duration", "--generate", "--chart",
                "--fair-sharing");

        Sim unknown = Sim.run("--frobnicate", "examples/gke-multislice");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown option --frobnicate");
        assertThat(unknown.out()).isEmpty();

        assertThat(Sim.run().exit()).isEqualTo(2);
        assertThat(Sim.run("--output", "yaml", "examples").err()).contains("--output must be table or json");
        assertThat(Sim.run("--generate", "kueue-huge").err()).contains("kueue-baseline, kueue-large-scale or kueue-tas");
        assertThat(Sim.run("--generate", "kueue-baseline", "examples/gke-multislice").exit()).isEqualTo(2);
        assertThat(Sim.run("--default-duration", "soon", "examples/gke-multislice").err())
                .contains("--default-duration", "not a duration");
    }
}
