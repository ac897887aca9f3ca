package dev.sluice.controller.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.PendingReason;
import dev.sluice.engine.PendingStatus;
import dev.sluice.engine.WorkloadKey;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/** The restraint on pending-status writes, on a fake clock: what is written, and when. */
class PendingStatusWritesTest {

    static final WorkloadKey WL = new WorkloadKey("ns", "wl");
    static final PendingStatus WAITING = new PendingStatus(WL, PendingReason.Pending,
            "Workload is waiting in ClusterQueue cq for its turn");
    static final PendingStatus SHORT_8 = new PendingStatus(WL, PendingReason.Pending,
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor f, 8 more needed");
    static final PendingStatus SHORT_16 = new PendingStatus(WL, PendingReason.Pending,
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor f, 16 more needed");
    static final PendingStatus SHORT_24 = new PendingStatus(WL, PendingReason.Pending,
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor f, 24 more needed");

    /** A clock that moves only when told, running what is due in time order. */
    static final class FakeTimer implements PendingStatusWrites.Timer {
        record Task(long at, long seq, Runnable run) {
        }

        long now;
        long seq;
        final PriorityQueue<Task> tasks = new PriorityQueue<>(
                Comparator.comparingLong(Task::at).thenComparingLong(Task::seq));

        @Override
        public long nowMillis() {
            return now;
        }

        @Override
        public void schedule(Runnable task, long delayMillis) {
            tasks.add(new Task(now + delayMillis, seq++, task));
        }

        void advance(long millis) {
            long until = now + millis;
            while (!tasks.isEmpty() && tasks.peek().at() <= until) {
                Task t = tasks.poll();
                now = Math.max(now, t.at());
                t.run().run();
            }
            now = until;
        }
    }

    final FakeTimer timer = new FakeTimer();
    final List<String> written = new ArrayList<>();
    final ArrayDeque<Runnable> lane = new ArrayDeque<>();
    boolean laneInline = true;
    boolean failing;

    final PendingStatusWrites writes = new PendingStatusWrites(Duration.ofMillis(500), Duration.ofSeconds(30), timer,
            (key, task) -> {
                if (laneInline) {
                    task.run();
                } else {
                    lane.add(task);
                }
            },
            status -> {
                if (failing) {
                    return false;
                }
                written.add(timer.nowMillis() + " " + status.message());
                return true;
            });

    @Test
    void theFirstStatusIsWrittenAfterTheDelay() {
        writes.want(WAITING);
        timer.advance(499);
        assertThat(written).isEmpty();
        timer.advance(1);
        assertThat(written).containsExactly("500 " + WAITING.message());
    }

    @Test
    void aWorkloadAdmittedWithinTheDelayGetsNoPendingWrite() {
        writes.want(WAITING);
        timer.advance(300);
        writes.forget(WL);
        timer.advance(60_000);
        assertThat(written).isEmpty();
        assertThat(writes.tracked()).isZero();
    }

    @Test
    void newFiguresAloneWaitForTheRefreshAndTheLatestIsWritten() {
        writes.want(SHORT_8);
        timer.advance(500);
        writes.want(SHORT_16);
        timer.advance(10_000);
        writes.want(SHORT_24);
        timer.advance(19_000); // t = 29,500
        assertThat(written).containsExactly("500 " + SHORT_8.message());
        timer.advance(999);
        assertThat(written).hasSize(1);
        timer.advance(1); // 30 s after the first write
        assertThat(written).containsExactly("500 " + SHORT_8.message(), "30500 " + SHORT_24.message());
    }

    @Test
    void aMessageThatSaysSomethingElseIsWrittenAfterTheDelay() {
        writes.want(WAITING);
        timer.advance(500);
        timer.advance(1_000);
        writes.want(SHORT_8); // t = 1,500
        timer.advance(499);
        assertThat(written).hasSize(1);
        timer.advance(1);
        assertThat(written).containsExactly("500 " + WAITING.message(), "2000 " + SHORT_8.message());
    }

    @Test
    void statusesThatChangeFasterThanTheDelayAreCoalescedToTheLatest() {
        writes.want(WAITING);
        timer.advance(500);
        writes.want(SHORT_8); // a new gist right after a write: not before the delay
        timer.advance(100);
        writes.want(new PendingStatus(WL, PendingReason.Inadmissible, "ClusterQueue cq is inactive"));
        timer.advance(2_000);
        assertThat(written).containsExactly("500 " + WAITING.message(), "1100 ClusterQueue cq is inactive");
    }

    @Test
    void wantingWhatIsWrittenWritesNothing() {
        writes.want(SHORT_8);
        timer.advance(500);
        writes.want(SHORT_16);
        writes.want(SHORT_8); // back to what the Workload shows
        timer.advance(120_000);
        assertThat(written).containsExactly("500 " + SHORT_8.message());
    }

    @Test
    void aFailedWriteIsTriedAgain() {
        failing = true;
        writes.want(WAITING);
        timer.advance(500);
        assertThat(written).isEmpty();
        failing = false;
        timer.advance(PendingStatusWrites.RETRY_MILLIS - 1);
        assertThat(written).isEmpty();
        timer.advance(1);
        assertThat(written).containsExactly("1500 " + WAITING.message());
    }

    @Test
    void aWriteQueuedOnTheLaneBeforeTheAdmissionIsDropped() {
        laneInline = false;
        writes.want(WAITING);
        timer.advance(500);
        assertThat(lane).hasSize(1); // handed to the lane, not yet run
        writes.forget(WL); // the engine admitted it; the admission's write queues behind this one
        lane.poll().run();
        assertThat(written).isEmpty();
    }

    @Test
    void gistIgnoresOnlyFigures() {
        assertThat(PendingStatusWrites.gist(SHORT_8.message())).isEqualTo(PendingStatusWrites.gist(SHORT_16.message()));
        assertThat(PendingStatusWrites.gist(SHORT_8.message())).isNotEqualTo(PendingStatusWrites.gist(WAITING.message()));
    }
}
