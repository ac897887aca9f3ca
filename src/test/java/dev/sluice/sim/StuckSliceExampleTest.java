package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/gke-multislice-stuck: a JobSet whose pods never get ready gives its chips back at the timeout, the others
 * run meanwhile, it is retried with backoff and finally deactivated.
 */
class StuckSliceExampleTest {

    private static final String EXAMPLE = "examples/gke-multislice-stuck";
    private static final String STUCK = "JobSet/default/multislice-3slice";

    private static List<Double> times(Sim sim, String event, String job) {
        return sim.events(event, job).stream().map(n -> n.path("time").asDouble()).toList();
    }

    @Test
    void theStuckSliceIsEvictedBackedOffAndDeactivatedWhileTheOthersRun() {
        Sim sim = Sim.run("-o", "json", "--backoff-limit-count", "2", EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(times(sim, "Admitted", STUCK)).containsExactly(0.0, 1905.0, 3825.0);
        assertThat(times(sim, "Evicted", STUCK)).containsExactly(1800.0, 3705.0);
        JsonNode first = sim.events("Evicted", STUCK).get(0);
        assertThat(first.path("message").asText()).startsWith("Exceeded the PodsReady timeout default/jobset-multislice-3slice-")
                .endsWith("requeued at 1860s (backoff 1)");
        assertThat(sim.events("Evicted", STUCK).get(1).path("message").asText()).endsWith("requeued at 3825s (backoff 2)");
        assertThat(times(sim, "Requeued", STUCK)).containsExactly(1860.0, 3825.0);
        assertThat(times(sim, "Deactivated", STUCK)).containsExactly(5625.0);
        assertThat(sim.events("Deactivated", STUCK).get(0).path("message").asText())
                .contains("The workload is deactivated due to exceeding the maximum number of re-queuing retries");
        for (String other : List.of("JobSet/default/multislice-1slice", "JobSet/default/multislice-2slice")) {
            assertThat(times(sim, "Admitted", other)).as(other).containsExactly(1800.0);
            assertThat(times(sim, "PodsReady", other)).as(other).containsExactly(1845.0);
            assertThat(times(sim, "Finished", other)).as(other).containsExactly(1905.0);
        }
        assertThat(times(sim, "PodsReady", STUCK)).isEmpty();
        assertThat(sim.summary().path("finished").asInt()).isEqualTo(2);
        assertThat(sim.summary().path("pending").asInt()).isEqualTo(1);
    }

    /**
     * Evictions are counted by reason, as Kueue's kueue_evicted_workloads_total{reason}: the PodsReady timeouts and
     * the deactivation are evictions, not preemptions (kueue_preempted_workloads_total stays 0).
     */
    @Test
    void podsReadyTimeoutsAreEvictionsNotPreemptions() {
        JsonNode summary = Sim.run("-o", "json", "--backoff-limit-count", "2", EXAMPLE).summary();
        assertThat(summary.path("preemptions").asInt()).isZero();
        assertThat(summary.path("evictions").asInt()).isEqualTo(3);
        assertThat(summary.path("evictionsByReason").toString())
                .isEqualTo("{\"InactiveWorkload\":1,\"PodsReadyTimeout\":2}");

        Sim table = Sim.run(EXAMPLE);
        assertThat(table.exit()).as(table.err()).isZero();
        List<String> lines = table.out().lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("NAMESPACE   NAME")).findFirst().orElseThrow();
        assertThat(header).endsWith("PREEMPTED   EVICTED");
        String stuck = lines.stream().filter(l -> l.contains("jobset-multislice-3slice")).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(stuck.trim().split(" +")).endsWith("0", "2");
        assertThat(lines.get(lines.size() - 1)).contains("1 pending, 0 preemptions, 2 evictions (PodsReadyTimeout 2);");
    }

    @Test
    void withoutALimitTheRunEndsWhenNothingElseIsLeftAndSaysSo() {
        Sim sim = Sim.run("-o", "json", EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(sim.events("Deactivated", STUCK)).isEmpty();
        List<JsonNode> requeued = sim.events("Requeued", STUCK);
        assertThat(requeued.get(requeued.size() - 1).path("message").asText())
                .contains("nothing else is left to run");
        assertThat(sim.summary().path("finished").asInt()).isEqualTo(2);
    }

    @Test
    void blockAdmissionHoldsTheOthersUntilTheTimeout() {
        Sim sim = Sim.run("-o", "json", "--block-admission", "--pods-ready-timeout", "5m", "--backoff-limit-count",
                "0", EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();
        // limit 0: the first timeout deactivates it; only then are the others admitted
        assertThat(times(sim, "Deactivated", STUCK)).containsExactly(300.0);
        assertThat(times(sim, "Admitted", "JobSet/default/multislice-1slice")).containsExactly(300.0);
    }

    @Test
    void aSliceThatLosesReadinessIsEvictedAtTheRecoveryTimeoutThenDeactivated(@TempDir Path dir) throws Exception {
        Files.copy(Path.of(EXAMPLE, "1-kueue.yaml"), dir.resolve("1-kueue.yaml"));
        // 3slice gets ready after 45 s, then a pod fails 30 s later (before its 60 s of work are done) for good
        Files.writeString(dir.resolve("2-jobsets.yaml"), Files.readString(Path.of(EXAMPLE, "2-jobsets-multislice.yaml"))
                .replace("sluice.dev/simulated-ready-after: never", "sluice.dev/simulated-ready-after: 45s\n"
                        + "    sluice.dev/simulated-ready-lost-after: 30s"));
        Sim sim = Sim.run("-o", "json", "--recovery-timeout", "5m", "--backoff-limit-count", "1", dir.toString());
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(times(sim, "PodsReady", STUCK)).containsExactly(45.0, 525.0);
        assertThat(times(sim, "PodsNotReady", STUCK)).containsExactly(75.0, 555.0);
        assertThat(sim.events("PodsNotReady", STUCK).get(0).path("message").asText())
                .isEqualTo("At least one pod has failed, waiting for recovery; recovery timeout at 375s");
        // 5 minutes after the loss, not 30 after admission; its chips go to the others meanwhile
        assertThat(times(sim, "Evicted", STUCK)).containsExactly(375.0);
        assertThat(times(sim, "Admitted", "JobSet/default/multislice-1slice")).containsExactly(375.0);
        assertThat(times(sim, "Admitted", STUCK)).containsExactly(0.0, 480.0);
        assertThat(times(sim, "Deactivated", STUCK)).containsExactly(855.0);
        assertThat(times(sim, "Finished", STUCK)).isEmpty();
    }

    @Test
    void aBadReadyLostAfterIsNamed(@TempDir Path dir) throws Exception {
        Files.copy(Path.of(EXAMPLE, "1-kueue.yaml"), dir.resolve("1-kueue.yaml"));
        Files.writeString(dir.resolve("2-jobsets.yaml"), Files.readString(Path.of(EXAMPLE, "2-jobsets-multislice.yaml"))
                .replace("sluice.dev/simulated-ready-after: never", "sluice.dev/simulated-ready-lost-after: later"));
        Sim sim = Sim.run(dir.toString());
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.err()).contains("metadata.annotations[sluice.dev/simulated-ready-lost-after]");
    }

    @Test
    void aBadReadyAfterIsNamed(@TempDir Path dir) throws Exception {
        Files.copy(Path.of(EXAMPLE, "1-kueue.yaml"), dir.resolve("1-kueue.yaml"));
        Files.writeString(dir.resolve("2-jobsets.yaml"), Files.readString(Path.of(EXAMPLE, "2-jobsets-multislice.yaml"))
                .replace("simulated-ready-after: never", "simulated-ready-after: soon"));
        Sim sim = Sim.run(dir.toString());
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.err()).contains("metadata.annotations[sluice.dev/simulated-ready-after]")
                .contains("or write never");
    }
}
