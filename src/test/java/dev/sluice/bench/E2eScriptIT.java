package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** bench/e2e.sh on a few hundred Workloads against the built jar: all finish, nothing over quota or admitted twice. */
class E2eScriptIT {

    @Test
    void theBenchmarkAtSmallScaleFinishesEveryWorkloadWithoutViolations() throws Exception {
        ScriptRun run = ScriptRun.run(120, "bench/e2e.sh", "kueue-baseline", "--scale", "0.02", "--timeout", "60",
                "--limit-writes", "100");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.number("workloads")).isEqualTo(300);
        assertThat(run.number("finished")).isEqualTo(300);
        assertThat(run.number("violations")).isZero();
        assertThat(run.number("lost")).isZero();
        assertThat(run.number("peakRssMiB")).isPositive();
        assertThat(run.number("apiWritesPerAdmission")).isPositive();
        assertThat(run.number("controllerCpuMsPerAdmission")).isPositive();
        assertThat(run.number("harnessWallSeconds")).isPositive();
        assertThat(run.output()).contains("ms per admission");
        assertThat(run.json()).contains("\"avgTimeToAdmission\": {\"large\"").contains("\"apiServerLimit\"")
                .contains("\"creationLagSeconds\": {\"max\"");
        assertThat(run.number("createdPerSecond")).isPositive();
        assertThat(run.output()).contains("behind schedule max");
    }
}
