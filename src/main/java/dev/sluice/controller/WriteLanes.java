package dev.sluice.controller;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The API writes of the engine's decisions, off the engine thread. Each object goes to one lane (a single thread,
 * chosen by its key), so one object's writes are made in the order they were decided while different objects are
 * written side by side. A write waiting to start can be replaced by a newer one for the same object ({@link
 * #latest}): only the latest state of a queue's status is worth writing.
 */
final class WriteLanes implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WriteLanes.class);

    private final ExecutorService[] lanes;
    /** Per key, the newest write not yet started (latest writes only). */
    private final Map<Object, Runnable> waiting = new HashMap<>();

    WriteLanes(int count, String name) {
        if (count < 1) {
            throw new IllegalArgumentException("write lanes: need at least 1, got " + count);
        }
        lanes = new ExecutorService[count];
        for (int i = 0; i < count; i++) {
            String threadName = name + "-" + i;
            lanes[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** Runs the write on the key's lane after the writes already queued there. */
    void execute(Object key, Runnable write) {
        try {
            lane(key).execute(() -> guarded(key, write));
        } catch (RejectedExecutionException e) {
            LOG.debugf("write for %s dropped: the lanes are closed", key);
        }
    }

    /** As {@link #execute}, but a write for the same key that has not started yet is replaced by this one. */
    void latest(Object key, Runnable write) {
        synchronized (waiting) {
            if (waiting.put(key, write) != null) {
                return; // the queued task will run this newer write
            }
        }
        execute(key, () -> {
            Runnable newest;
            synchronized (waiting) {
                newest = waiting.remove(key);
            }
            if (newest != null) {
                newest.run();
            }
        });
    }

    private ExecutorService lane(Object key) {
        return lanes[Math.floorMod(key.hashCode(), lanes.length)];
    }

    private static void guarded(Object key, Runnable write) {
        try {
            write.run();
        } catch (RuntimeException e) {
            LOG.warnf(e, "write for %s failed", key);
        }
    }

    /** Waits until every write queued so far is done (tests, and an orderly stop). */
    boolean drain(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (ExecutorService lane : lanes) {
            var done = new java.util.concurrent.CountDownLatch(1);
            try {
                lane.execute(done::countDown);
            } catch (RejectedExecutionException e) {
                continue;
            }
            if (!done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (ExecutorService lane : lanes) {
            lane.shutdownNow();
        }
    }
}
