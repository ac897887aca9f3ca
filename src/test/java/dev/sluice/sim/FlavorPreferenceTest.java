package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** simulate reads Kueue v0.19's flavorFungibility.preference (both versions) and the engine follows it. */
class FlavorPreferenceTest {

    @TempDir
    Path dir;

    private Sim run(String apiVersion, String preference) throws Exception {
        String text = Files.readString(Path.of("src/test/resources/sim/preference/queues.yaml"))
                .replace("PREFERENCE", preference);
        if (apiVersion.equals("v1beta1")) {
            text = text.replace("kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1beta1").replace("cohortName:", "cohort:");
        }
        Path file = dir.resolve(apiVersion + "-" + preference + ".yaml");
        Files.writeString(file, text);
        return Sim.run("--output", "json", file.toString());
    }

    private static List<String> decisions(Sim sim) {
        assertThat(sim.exit()).as(sim.err()).isZero();
        return sim.lines().stream().filter(n -> List.of("Admitted", "Preempted").contains(n.path("event").asText()))
                .map(n -> n.path("time").asInt() + "s " + n.path("event").asText() + " " + n.path("workload").asText()
                        + " " + n.path("flavors").path("main").path("cpu").asText())
                .toList();
    }

    @Test
    void preemptionOverBorrowingPreemptsInTheFirstFlavor() throws Exception {
        for (String version : List.of("v1beta1", "v1beta2")) {
            assertThat(decisions(run(version, "PreemptionOverBorrowing"))).as(version).containsExactly(
                    "0s Admitted low on-demand", "1s Preempted low on-demand", "1s Admitted high on-demand",
                    "1s Admitted low spot");
        }
    }

    @Test
    void borrowingOverPreemptionBorrowsInTheSecond() throws Exception {
        for (String version : List.of("v1beta1", "v1beta2")) {
            assertThat(decisions(run(version, "BorrowingOverPreemption"))).as(version).containsExactly(
                    "0s Admitted low on-demand", "1s Admitted high spot");
        }
    }
}
