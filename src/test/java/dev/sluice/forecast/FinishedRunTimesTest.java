package dev.sluice.forecast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each finished Workload's run time is recorded once, however many captures see it and however long the history. */
class FinishedRunTimesTest {

    private static final long NOW = Instant.parse("2026-12-01T12:00:00Z").toEpochMilli();

    private static Workload finished(int i, long finishedAt, long runMillis) {
        Workload wl = new Workload();
        wl.setMetadata(new ObjectMetaBuilder().withNamespace("team").withName("wl-" + i)
                .withUid(String.format("00000000-0000-0000-0000-%012d", i)).build());
        WorkloadSpec spec = new WorkloadSpec();
        spec.setQueueName("lq");
        spec.setPriority(0);
        wl.setSpec(spec);
        WorkloadStatus status = new WorkloadStatus();
        status.setConditions(List.of(condition("QuotaReserved", finishedAt - runMillis),
                condition("Finished", finishedAt)));
        wl.setStatus(status);
        return wl;
    }

    private static Condition condition(String type, long at) {
        return new ConditionBuilder().withType(type).withStatus("True").withReason(type)
                .withLastTransitionTime(Instant.ofEpochMilli(at).toString()).build();
    }

    private static void capture(FinishedRunTimes runTimes, List<Workload> cache, long at) {
        cache.forEach(runTimes::look);
        runTimes.captured(at);
    }

    @Test
    void aLongHistoryIsRecordedOnceAndItsUidsAreNotKept() {
        RunTimeHistory history = new RunTimeHistory();
        FinishedRunTimes runTimes = new FinishedRunTimes(history);
        List<Workload> cache = new ArrayList<>();
        // a long history (more than any fixed number of remembered uids) finished hours ago, and a few just now
        for (int i = 0; i < 25_000; i++) {
            cache.add(finished(i, NOW - 3_600_000 - i, 60_000));
        }
        for (int i = 25_000; i < 25_020; i++) {
            cache.add(finished(i, NOW - 1_000, 10_000));
        }
        capture(runTimes, cache, NOW);
        assertThat(history.recorded()).isEqualTo(25_020);
        assertThat(runTimes.remembered()).as("only those finished within the horizon").isEqualTo(20);

        capture(runTimes, cache, NOW + 30_000);
        capture(runTimes, cache, NOW + 60_000);
        assertThat(history.recorded()).as("seen again, not recorded again").isEqualTo(25_020);
        assertThat(history.median("team", "lq", 0)).isEqualTo(10_000L);
    }

    @Test
    void aFinishThatReachesTheCacheLateIsCountedOnce() {
        RunTimeHistory history = new RunTimeHistory();
        FinishedRunTimes runTimes = new FinishedRunTimes(history);
        List<Workload> cache = new ArrayList<>();
        capture(runTimes, cache, NOW);
        // finished 20 s before the capture above, but its event arrived after it
        cache.add(finished(1, NOW - 20_000, 5_000));
        capture(runTimes, cache, NOW + 30_000);
        capture(runTimes, cache, NOW + 60_000);
        assertThat(history.recorded()).isEqualTo(1);
        // once the horizon passes it, it is forgotten and still not recorded again
        capture(runTimes, cache, NOW + FinishedRunTimes.LATE + 60_000);
        assertThat(runTimes.remembered()).isZero();
        capture(runTimes, cache, NOW + FinishedRunTimes.LATE + 90_000);
        assertThat(history.recorded()).isEqualTo(1);
    }

    @Test
    void aWorkloadNotFinishedOrWithoutAReservationIsNotRecorded() {
        RunTimeHistory history = new RunTimeHistory();
        FinishedRunTimes runTimes = new FinishedRunTimes(history);
        Workload running = finished(1, NOW, 1_000);
        running.getStatus().setConditions(List.of(condition("QuotaReserved", NOW - 1_000)));
        Workload neverReserved = finished(2, NOW, 1_000);
        neverReserved.getStatus().setConditions(List.of(condition("Finished", NOW)));
        capture(runTimes, List.of(running, neverReserved), NOW);
        assertThat(history.recorded()).isZero();
    }
}
