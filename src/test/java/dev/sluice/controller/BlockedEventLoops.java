package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Every event loop of a Vert.x blocked until closed (or at most {@code maxBlock}): what a long informer list or a
 * write backlog does to the loops it runs on. Tests that something else keeps working meanwhile.
 */
final class BlockedEventLoops implements AutoCloseable {
    private final CountDownLatch release = new CountDownLatch(1);

    /** Blocks every loop and returns once all of them are blocked. */
    static BlockedEventLoops block(Vertx vertx, Duration maxBlock) throws InterruptedException {
        return new BlockedEventLoops(vertx, maxBlock);
    }

    private BlockedEventLoops(Vertx vertx, Duration maxBlock) throws InterruptedException {
        List<EventExecutor> loops = new ArrayList<>();
        vertx.nettyEventLoopGroup().forEach(loops::add);
        assertThat(loops).isNotEmpty();
        CountDownLatch blocked = new CountDownLatch(loops.size());
        for (EventExecutor loop : loops) {
            loop.execute(() -> {
                blocked.countDown();
                try {
                    release.await(maxBlock.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(blocked.await(10, TimeUnit.SECONDS)).as("every event loop blocked").isTrue();
    }

    /** Whether the loops are still held (not released by close). */
    boolean stillBlocked() {
        return release.getCount() == 1;
    }

    @Override
    public void close() {
        release.countDown();
    }
}
