package dev.sluice.controller.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runs told as Workloads finish: taken once each, oldest first, and bounded when nobody takes them. */
class FinishedRunsTest {

    private static List<FinishedRuns.Run> take(FinishedRuns runs) {
        List<FinishedRuns.Run> out = new ArrayList<>();
        runs.drain(out::add);
        return out;
    }

    @Test
    void eachRunIsTakenOnceInTheOrderTold() {
        FinishedRuns runs = new FinishedRuns();
        runs.add("team", "lq", 0, 1_000, 61_000);
        runs.add("team", "lq", 5, 2_000, 3_000);
        assertThat(take(runs)).containsExactly(new FinishedRuns.Run("team", "lq", 0, 60_000),
                new FinishedRuns.Run("team", "lq", 5, 1_000));
        assertThat(take(runs)).isEmpty();
    }

    @Test
    void aRunThatEndsBeforeItStartsOrHasNoQueueIsNotARun() {
        FinishedRuns runs = new FinishedRuns();
        runs.add("team", "lq", 0, 5_000, 4_999);
        runs.add("team", null, 0, 1_000, 2_000);
        assertThat(take(runs)).isEmpty();
    }

    @Test
    void aRebuildTellsOnlyTheStoredRunsThatFinishedAfterEveryRunToldBefore() {
        FinishedRuns runs = new FinishedRuns();
        runs.add("team", "lq", 0, 0, 10_000); // told live in an earlier term
        runs.beginRebuild();
        runs.addStored("team", "lq", 0, 0, 10_000); // that one, stored
        runs.addStored("team", "lq", 0, 5_000, 9_000); // finished before it
        runs.addStored("team", "lq", 0, 10_000, 12_000); // finished under another leader since
        assertThat(take(runs)).extracting(FinishedRuns.Run::runMillis).containsExactly(10_000L, 2_000L);

        // the first rebuild of a process tells every stored run, in any order
        FinishedRuns fresh = new FinishedRuns();
        fresh.beginRebuild();
        fresh.addStored("team", "lq", 0, 0, 10_000);
        fresh.addStored("team", "lq", 0, 0, 5_000);
        assertThat(take(fresh)).extracting(FinishedRuns.Run::runMillis).containsExactly(10_000L, 5_000L);
    }

    @Test
    void untakenRunsDropTheOldestAtTheBound() {
        FinishedRuns runs = new FinishedRuns(3);
        for (int i = 0; i < 5; i++) {
            runs.add("team", "lq", 0, 0, i);
        }
        assertThat(runs.size()).isEqualTo(3);
        assertThat(runs.dropped()).isEqualTo(2);
        assertThat(take(runs)).extracting(FinishedRuns.Run::runMillis).containsExactly(2L, 3L, 4L);
    }
}
