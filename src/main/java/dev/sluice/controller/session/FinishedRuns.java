package dev.sluice.controller.session;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The run times of Workloads as they finish, told by the controller where it sees the finish (the engine lets go of
 * an admitted Workload), for the forecast to take at its next capture. So no reader has to walk every cached
 * Workload, a quarter of a million finished ones included, to find the few that finished since it last looked. At
 * start the rebuild tells the finished Workloads already stored, so the forecast starts with their run times; one
 * instance lives as long as the process, so a later term as leader tells only what finished after the runs told
 * before (a standby's leader finished them), not the whole history again. Bounded: the oldest runs are dropped when
 * nobody takes them (the forecast is off); the forecast keeps only the last few per LocalQueue and priority anyway.
 */
public final class FinishedRuns {

    /** One finished run: how long the Workload held its quota, by LocalQueue (namespace/name) and priority. */
    public record Run(String namespace, String localQueue, int priority, long runMillis) {
    }

    static final int CAPACITY = 16_384;

    private final int capacity;
    private final ArrayDeque<Run> runs = new ArrayDeque<>();
    private long dropped;
    /** The latest finish told so far, and as it was when the current rebuild began. */
    private long toldUntilMillis = Long.MIN_VALUE;
    private long storedAfterMillis = Long.MIN_VALUE;

    public FinishedRuns() {
        this(CAPACITY);
    }

    FinishedRuns(int capacity) {
        this.capacity = capacity;
    }

    /** A rebuild begins: the stored runs it tells are those that finished after every run told before it. */
    public synchronized void beginRebuild() {
        storedAfterMillis = toldUntilMillis;
    }

    /** A finished Workload found by the rebuild; told unless an earlier term told it already. */
    public synchronized void addStored(String namespace, String localQueue, int priority, long admittedAtMillis,
            long finishedAtMillis) {
        if (finishedAtMillis > storedAfterMillis) {
            add(namespace, localQueue, priority, admittedAtMillis, finishedAtMillis);
        }
    }

    /** A Workload admitted at {@code admittedAtMillis} finished at {@code finishedAtMillis}; negative runs are not runs. */
    public synchronized void add(String namespace, String localQueue, int priority, long admittedAtMillis,
            long finishedAtMillis) {
        long run = finishedAtMillis - admittedAtMillis;
        if (run < 0 || localQueue == null) {
            return;
        }
        if (runs.size() == capacity) {
            runs.removeFirst();
            dropped++;
        }
        runs.addLast(new Run(namespace, localQueue, priority, run));
        toldUntilMillis = Math.max(toldUntilMillis, finishedAtMillis);
    }

    /** Hands every run told since the last call to {@code to}, oldest first, and forgets them. */
    public synchronized void drain(Consumer<Run> to) {
        for (Run r; (r = runs.pollFirst()) != null;) {
            to.accept(r);
        }
    }

    synchronized int size() {
        return runs.size();
    }

    /** Runs dropped because nobody took them in time. */
    synchronized long dropped() {
        return dropped;
    }
}
