package dev.sluice.controller.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteLanesTest {

    final WriteLanes lanes = new WriteLanes(3, "test-write");
    final List<String> done = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        lanes.close();
    }

    /** Holds the key's lane until released, so what is queued behind it waits. */
    private CountDownLatch block(Object key) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        lanes.execute(key, () -> {
            started.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    @Test
    void oneObjectsWritesRunInTheOrderGiven() throws Exception {
        CountDownLatch release = block("wl-a");
        for (int i = 0; i < 50; i++) {
            int n = i;
            lanes.execute("wl-a", () -> done.add("a" + n));
        }
        release.countDown();
        assertThat(lanes.drain(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done).hasSize(50);
        for (int i = 0; i < 50; i++) {
            assertThat(done.get(i)).isEqualTo("a" + i);
        }
    }

    @Test
    void aWriteWaitingToStartIsReplacedByTheLatest() throws Exception {
        CountDownLatch release = block("cq/a");
        lanes.latest("cq/a", () -> done.add("status 1"));
        lanes.latest("cq/a", () -> done.add("status 2"));
        lanes.latest("cq/a", () -> done.add("status 3"));
        release.countDown();
        assertThat(lanes.drain(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done).containsExactly("status 3");

        lanes.latest("cq/a", () -> done.add("status 4")); // after the last one ran: written too
        assertThat(lanes.drain(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done).containsExactly("status 3", "status 4");
    }

    @Test
    void decisionsGoBeforeBackgroundWritesQueuedEarlier() throws Exception {
        CountDownLatch release = block("wl-c");
        lanes.background("wl-c", () -> done.add("pending status"));
        lanes.latest("wl-c", () -> done.add("queue status"));
        lanes.execute("wl-c", () -> done.add("admission"));
        lanes.execute("wl-c", () -> done.add("eviction"));
        release.countDown();
        assertThat(lanes.drain(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done).containsExactly("admission", "eviction", "pending status", "queue status");
    }

    @Test
    void aFailingWriteDoesNotStopItsLane() throws Exception {
        lanes.execute("wl-b", () -> {
            throw new IllegalStateException("boom");
        });
        lanes.execute("wl-b", () -> done.add("after"));
        assertThat(lanes.drain(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done).containsExactly("after");
    }

    @Test
    void needsAtLeastOneLane() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WriteLanes(0, "x"))
                .hasMessageContaining("at least 1");
    }
}
