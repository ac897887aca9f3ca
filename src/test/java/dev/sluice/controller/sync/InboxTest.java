package dev.sluice.controller.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.controller.cache.Ref;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine loop's inbox holds each changed object once, in the order objects first changed; tasks keep theirs. */
class InboxTest {

    private static Ref wl(String name) {
        return new Ref(Ref.WORKLOAD, "ns", name);
    }

    @Test
    void manyChangesOfOneObjectAreOneEntryHandledOnceWithTheLatestState() {
        Inbox inbox = new Inbox();
        Map<Ref, Integer> cache = new ConcurrentHashMap<>(); // what the informer's store holds when the loop looks
        for (int version = 1; version <= 1000; version++) {
            cache.put(wl("a"), version);
            inbox.add(wl("a"));
        }
        assertThat(inbox.size()).isEqualTo(1);
        assertThat(inbox.coalesced()).isEqualTo(999);

        List<Integer> handled = new ArrayList<>();
        inbox.take().refs().forEach(ref -> handled.add(cache.get(ref)));
        assertThat(handled).containsExactly(1000);
        assertThat(inbox.size()).isZero();
    }

    @Test
    void distinctObjectsKeepTheOrderTheyFirstChangedIn() {
        Inbox inbox = new Inbox();
        inbox.add(wl("b"));
        inbox.add(wl("a"));
        inbox.add(wl("b"));
        inbox.add(new Ref(Ref.CLUSTER_QUEUE, null, "cq"));
        inbox.add(wl("a"));
        inbox.add(wl("c"));
        assertThat(inbox.take().refs()).containsExactly(wl("b"), wl("a"), new Ref(Ref.CLUSTER_QUEUE, null, "cq"),
                wl("c"));
        // once taken, a new change of the same object is a new entry (the loop must look again)
        inbox.add(wl("a"));
        assertThat(inbox.take().refs()).containsExactly(wl("a"));
    }

    @Test
    void tasksAreNeverCoalescedAndRunInOrder() {
        Inbox inbox = new Inbox();
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            Runnable same = () -> ran.add(n);
            inbox.add(same);
            inbox.add(wl("a"));
        }
        Inbox.Batch batch = inbox.take();
        batch.tasks().forEach(Runnable::run);
        assertThat(ran).containsExactly(0, 1, 2, 3, 4);
        assertThat(batch.refs()).containsExactly(wl("a"));
    }

    @Test
    void changesFromManyThreadsAreEachObjectOnce() throws Exception {
        Inbox inbox = new Inbox();
        int threads = 4;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                for (int round = 0; round < 50; round++) {
                    for (int i = 0; i < 100; i++) {
                        inbox.add(wl("w" + i));
                    }
                }
                done.countDown();
            }).start();
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(inbox.size()).isEqualTo(100);
        assertThat(inbox.coalesced()).isEqualTo(threads * 50 * 100 - 100);
        assertThat(inbox.take().refs()).hasSize(100);
    }

    @Test
    void awaitWakesOnAnAdditionAndTimesOutWhenEmpty() throws Exception {
        Inbox inbox = new Inbox();
        assertThat(inbox.await(20, TimeUnit.MILLISECONDS)).isFalse();
        Thread adder = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
            inbox.add(wl("a"));
        });
        adder.start();
        assertThat(inbox.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(inbox.take().refs()).containsExactly(wl("a"));
        inbox.add(() -> { });
        assertThat(inbox.await(0, TimeUnit.MILLISECONDS)).isTrue();
    }
}
