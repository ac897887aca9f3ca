package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's scheduler cases written in kueue.x-k8s.io/v1beta1 with the deprecated fungibility spellings
 * (whenCanBorrow: Borrow, whenCanPreempt: Preempt, both MayStopSearch in v1beta2), from Kueue v0.14's
 * pkg/scheduler/scheduler_test.go, replayed through simulate. Pre-admitted workloads are submitted first; the
 * expected outcomes are Kueue's.
 */
class KueueV1beta1CasesTest {

    private static final String DIR = "src/test/resources/sim/kueue-v1beta1/";

    private static Sim run(String... files) {
        String[] args = new String[files.length + 2];
        args[0] = "--output";
        args[1] = "json";
        for (int i = 0; i < files.length; i++) {
            args[i + 2] = DIR + files[i];
        }
        Sim sim = Sim.run(args);
        assertThat(sim.exit()).as(sim.err()).isZero();
        return sim;
    }

    private static List<String> events(Sim sim, String event) {
        return sim.lines().stream().filter(n -> event.equals(n.path("event").asText()))
                .map(n -> n.path("time").asInt() + "s " + n.path("workload").asText() + " " + flavor(n)).toList();
    }

    private static String flavor(JsonNode event) {
        return event.path("flavors").path("main").path("cpu").asText("");
    }

    /** "use second flavor when the first has no preemption candidates; WhenCanPreempt: Preempt" (TestSchedule). */
    @Test
    void useSecondFlavorWhenTheFirstHasNoPreemptionCandidates() {
        Sim sim = run("use-second-flavor-when-the-first-has-no-preemption-candidates.yaml");
        assertThat(events(sim, "Admitted")).containsExactly("0s admitted on-demand", "1s new spot");
        assertThat(events(sim, "Preempted")).isEmpty();
    }

    /** "don't assign flavor if there are no candidates for preemption" (TestSchedule). */
    @Test
    void dontAssignFlavorIfThereAreNoCandidatesForPreemption() {
        Sim sim = run("dont-assign-flavor-if-there-are-no-candidates-for-preemption.yaml");
        assertThat(events(sim, "Admitted")).containsExactly("0s admitted on-demand", "1s new spot");
        assertThat(events(sim, "Preempted")).isEmpty();
    }

    /** "borrow before next flavor" (TestLastSchedulingContext): whenCanBorrow Borrow stops at the first flavor. */
    @Test
    void borrowBeforeNextFlavor() {
        Sim sim = run("last-scheduling-context/cohort.yaml", "last-scheduling-context/borrow-before-next-flavor.yaml");
        // in one cycle, the head that does not borrow goes first (Kueue's entry order)
        assertThat(events(sim, "Admitted")).containsExactly("0s placeholder on-demand", "1s workload1 on-demand",
                "1s borrower on-demand");
    }

    /** "when the next flavor is full, but can preempt on first" (TestLastSchedulingContext). */
    @Test
    void whenTheNextFlavorIsFullButCanPreemptOnFirst() {
        Sim sim = run("last-scheduling-context/cohort.yaml",
                "last-scheduling-context/when-the-next-flavor-is-full-but-can-preempt-on-first.yaml");
        // With Borrow, alpha's placeholder borrows on-demand instead of taking its own spot.
        assertThat(events(sim, "Admitted")).startsWith("0s placeholder-alpha on-demand", "1s placeholder-beta on-demand",
                "2s placeholder-theta-spot spot").contains("3s new on-demand");
        assertThat(events(sim, "Preempted")).containsExactly("3s placeholder-alpha on-demand");
        JsonNode preempted = sim.events("Preempted", "Workload/default/placeholder-alpha").get(0);
        assertThat(preempted.path("message").asText()).contains("due to reclamation within the cohort");
    }
}
