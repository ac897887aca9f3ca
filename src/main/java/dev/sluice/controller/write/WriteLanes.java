package dev.sluice.controller.write;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The API writes of the engine's decisions, off the engine thread. Each object goes to one lane (a single thread,
 * chosen by its key), so one object's decisions are written in the order they were made while different objects are
 * written side by side. A lane runs decisions (admission, eviction, release) before background writes (pending and
 * queue status), so a burst of status never delays an admission; a background write that runs after a decision must
 * therefore be harmless then (a pending status is not written on an admitted Workload). A background write waiting
 * to start can be replaced by a newer one for the same object ({@link #latest}).
 */
public final class WriteLanes implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WriteLanes.class);

    private final Lane[] lanes;
    /** Per key, the newest write not yet started (latest writes only). */
    private final Map<Object, Runnable> waiting = new HashMap<>();

    /** One thread, two queues: decisions first. */
    private static final class Lane {
        private final ArrayDeque<Runnable> decisions = new ArrayDeque<>();
        private final ArrayDeque<Runnable> background = new ArrayDeque<>();
        private final Thread thread;
        private boolean closed;

        Lane(String name) {
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
            thread.start();
        }

        synchronized void add(Runnable task, boolean decision) {
            if (closed) {
                throw new RejectedExecutionException("closed");
            }
            (decision ? decisions : background).add(task);
            notifyAll();
        }

        private synchronized Runnable next() throws InterruptedException {
            while (!closed && decisions.isEmpty() && background.isEmpty()) {
                wait();
            }
            if (closed) {
                return null;
            }
            return decisions.isEmpty() ? background.poll() : decisions.poll();
        }

        private void run() {
            try {
                Runnable task;
                while ((task = next()) != null) {
                    task.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        synchronized int queued() {
            return decisions.size() + background.size();
        }

        synchronized void close() {
            closed = true;
            decisions.clear();
            background.clear();
            notifyAll();
            thread.interrupt();
        }
    }

    public WriteLanes(int count, String name) {
        if (count < 1) {
            throw new IllegalArgumentException("write lanes: need at least 1, got " + count);
        }
        lanes = new Lane[count];
        for (int i = 0; i < count; i++) {
            lanes[i] = new Lane(name + "-" + i);
        }
    }

    /** A decision's write: on the key's lane, after the decisions already queued there. */
    public void execute(Object key, Runnable write) {
        add(key, write, true);
    }

    /** A background write: on the key's lane once no decision waits there. */
    public void background(Object key, Runnable write) {
        add(key, write, false);
    }

    private void add(Object key, Runnable write, boolean decision) {
        try {
            lane(key).add(() -> guarded(key, write), decision);
        } catch (RejectedExecutionException e) {
            LOG.debugf("write for %s dropped: the lanes are closed", key);
        }
    }

    /** As {@link #background}, but a write for the same key that has not started yet is replaced by this one. */
    public void latest(Object key, Runnable write) {
        synchronized (waiting) {
            if (waiting.put(key, write) != null) {
                return; // the queued task will run this newer write
            }
        }
        background(key, () -> {
            Runnable newest;
            synchronized (waiting) {
                newest = waiting.remove(key);
            }
            if (newest != null) {
                newest.run();
            }
        });
    }

    private Lane lane(Object key) {
        return lanes[Math.floorMod(key.hashCode(), lanes.length)];
    }

    private static void guarded(Object key, Runnable write) {
        try {
            write.run();
        } catch (RuntimeException e) {
            LOG.warnf(e, "write for %s failed", key);
        }
    }

    /** Writes queued and not started, over all lanes (for the progress log). */
    public int queued() {
        int n = 0;
        for (Lane lane : lanes) {
            n += lane.queued();
        }
        return n;
    }

    /** Waits until every write queued so far is done (for tests). */
    boolean drain(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Lane lane : lanes) {
            CountDownLatch done = new CountDownLatch(1);
            try {
                lane.add(done::countDown, false);
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
        for (Lane lane : lanes) {
            lane.close();
        }
    }
}
