package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * bench/chaos.sh on a few hundred Workloads: one SIGKILL and restart of the controller, a share of its writes failed,
 * latency and cut watches; the auditor finds no violation and every Workload finishes.
 */
class ChaosScriptIT {

    @Test
    void theControllerSurvivesAKillAndApiFaultsWithoutViolations() throws Exception {
        ScriptRun run = ScriptRun.run(150, "bench/chaos.sh", "kueue-baseline", "--scale", "0.02", "--kills", "1",
                "--write-failures", "0.03", "--latency-ms", "5", "--watch-cut-ms", "2000:5000", "--timeout", "90",
                "--seed", "11");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.number("finished")).isEqualTo(300);
        assertThat(run.number("violations")).isZero();
        assertThat(run.number("lost")).isZero();
        assertThat(run.number("restarts")).isEqualTo(1);
        assertThat(run.number("faults")).isPositive();
    }

    /**
     * A share of Workloads whose pods never get ready, under heavier write faults: each is timed out, requeued and
     * deactivated (the run fails otherwise), nothing else is lost. Before the controller decided on the Workload as it
     * last wrote it, a late watch event made it count a released Workload as admitted again.
     */
    @Test
    void neverReadyWorkloadsAreAllDeactivatedUnderWriteFaultsAndAKill() throws Exception {
        ScriptRun run = ScriptRun.run(240, "bench/chaos.sh", "kueue-baseline", "--scale", "0.01", "--kills", "1",
                "--write-failures", "0.05", "--latency-ms", "5", "--watch-cut-ms", "2000:5000", "--timeout", "90",
                "--seed", "12", "--never-ready", "0.05");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.number("finished")).isEqualTo(run.number("workloads"));
        assertThat(run.number("violations")).isZero();
        assertThat(run.number("lost")).isZero();
        assertThat(run.output()).containsPattern("deactivated: (\\d+) of \\1 never-ready workloads")
                .doesNotContain("deactivated: 0 of");
    }
}
