package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * examples/admission-fair-sharing in simulate: ClusterQueue shared (2 cpu, UsageBasedAdmissionFairSharing) with
 * LocalQueues heavy (8 one-cpu jobs at 0s) and light (4 at 10s), 60s each. First in, first out, light waits until
 * heavy's last two start (240s). With --admission-fair-sharing heavy's recent usage puts light first as soon as
 * quota frees at 60s; the LocalQueue table shows each one's usage.
 */
class AdmissionFairSharingExampleTest {

    static final String EXAMPLE = "examples/admission-fair-sharing";

    @Test
    void theLocalQueueWithoutRecentUsageGoesFirst() {
        Sim afs = Sim.run("-o", "json", "--admission-fair-sharing", "--usage-half-life", "5m",
                "--usage-sampling-interval", "30s", EXAMPLE);
        assertThat(afs.exit()).as(afs.err()).isZero();
        assertThat(firstAdmission(afs, "light")).isEqualTo(60.0);
        assertThat(afs.events("Admitted", "Job/team/light-2").get(0).path("time").asDouble()).isEqualTo(60.0);
        JsonNode lqs = afs.summary().path("localQueueAdmissionFairSharing");
        assertThat(lqs.path("team/heavy").path("clusterQueue").asText()).isEqualTo("shared");
        assertThat(lqs.path("team/heavy").path("peakUsage").asDouble())
                .isGreaterThan(lqs.path("team/light").path("peakUsage").asDouble()).isPositive();

        Sim fifo = Sim.run("-o", "json", EXAMPLE);
        assertThat(fifo.exit()).as(fifo.err()).isZero();
        assertThat(firstAdmission(fifo, "light")).as("without it, light waits for all of heavy's").isEqualTo(240.0);
        assertThat(fifo.summary().has("localQueueAdmissionFairSharing")).isFalse();
    }

    @Test
    void theTableShowsEachLocalQueuesUsage() {
        Sim table = Sim.run("--admission-fair-sharing", "--usage-half-life", "5m", "--usage-sampling-interval", "30s",
                EXAMPLE);
        assertThat(table.exit()).as(table.err()).isZero();
        assertThat(table.out()).contains("LocalQueues (admission fair sharing")
                .containsPattern("team\\s+heavy\\s+shared\\s+1\\s+")
                .containsPattern("team\\s+light\\s+shared\\s+1\\s+");
    }

    @Test
    void itsSettingsAreCheckedByName() {
        Sim noHalfLife = Sim.run("--admission-fair-sharing", EXAMPLE);
        assertThat(noHalfLife.exit()).isEqualTo(2);
        assertThat(noHalfLife.err()).contains("--admission-fair-sharing needs --usage-half-life");
        Sim alone = Sim.run("--usage-half-life", "5m", EXAMPLE);
        assertThat(alone.exit()).isEqualTo(2);
        assertThat(alone.err()).contains("--usage-half-life only applies with --admission-fair-sharing");
        Sim zero = Sim.run("--admission-fair-sharing", "--usage-half-life", "5m", "--usage-sampling-interval", "0",
                EXAMPLE);
        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.err()).contains("--usage-sampling-interval must be positive");
    }

    private static double firstAdmission(Sim sim, String queue) {
        return sim.lines().stream().filter(n -> "Admitted".equals(n.path("event").asText())
                        && n.path("job").asText().startsWith("Job/team/" + queue + "-"))
                .mapToDouble(n -> n.path("time").asDouble()).min().orElse(Double.NaN);
    }
}
