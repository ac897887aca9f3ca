package dev.sluice.controller.write;

import dev.sluice.controller.store.Compact;
import dev.sluice.engine.PendingReason;
import dev.sluice.engine.PendingStatus;
import dev.sluice.engine.UnadmittedReason;
import dev.sluice.engine.WorkloadKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * Why a Workload still waits, as its QuotaReserved=False condition, written with restraint. The engine says it
 * again every time it tries the Workload, often with new figures ("8 more needed", then "16 more needed"); writing
 * each would cost an API write per try. So:
 * <ul>
 * <li>a new reason, or a message that says something else, is written after {@code delay} (a Workload admitted
 * meanwhile gets no pending write at all), and at most once per {@code delay} per Workload;</li>
 * <li>a message whose only change is its figures is refreshed at most every {@code refresh};</li>
 * <li>{@link #forget} (admitted, finished, deleted) drops what was not written yet.</li>
 * </ul>
 * The writes go through the Workload's lane, so a pending write never overtakes the admission decided after it.
 */
public final class PendingStatusWrites {

    /** Time and delayed execution; the real one is a scheduled executor, tests drive a fake. */
    public interface Timer {
        long nowMillis();

        void schedule(Runnable task, long delayMillis);
    }

    /** Writes one pending status; true when written (or nothing needed writing), false to try again later. */
    public interface Writer {
        boolean write(PendingStatus status);
    }

    private static final Pattern FIGURES = Pattern.compile("\\d+");
    static final long RETRY_MILLIS = 1000;

    private final long delayMillis;
    private final long refreshMillis;
    private final Timer timer;
    private final BiConsumer<WorkloadKey, Runnable> lane;
    private final Writer writer;
    private final Map<WorkloadKey, Entry> entries = new HashMap<>();

    private static final class Entry {
        PendingStatus wanted;
        /** The wanted message's gist, computed once per want. */
        String wantedGist;
        /** Since when a status of the wanted reason and gist is wanted. */
        long wantedSince;
        PendingReason writtenReason;
        /** Kueue's granular reason written with it: a change of it alone is a new reason too. */
        UnadmittedReason writtenUnadmitted;
        String writtenMessage;
        String writtenGist;
        long writtenAt;
        /** Earliest time a check is scheduled for, or Long.MAX_VALUE. */
        long checkAt = Long.MAX_VALUE;
        boolean writing;
    }

    public PendingStatusWrites(Duration delay, Duration refresh, Timer timer, BiConsumer<WorkloadKey, Runnable> lane,
            Writer writer) {
        this.delayMillis = delay.toMillis();
        this.refreshMillis = refresh.toMillis();
        this.timer = timer;
        this.lane = lane;
        this.writer = writer;
    }

    /** From the engine thread: the Workload waits, for this reason. */
    public synchronized void want(PendingStatus status) {
        Entry e = entries.computeIfAbsent(status.workload(), k -> new Entry());
        if (e.writtenMessage != null && e.writtenReason == status.reason()
                && e.writtenUnadmitted == status.unadmittedReason() && e.writtenMessage.equals(status.message())) {
            e.wanted = null; // already shows exactly this
            return;
        }
        String gist = Compact.shared(gist(status.message())); // one copy per distinct gist, as the message's
        if (e.wanted == null || e.wanted.reason() != status.reason()
                || e.wanted.unadmittedReason() != status.unadmittedReason() || !gist.equals(e.wantedGist)) {
            e.wantedSince = timer.nowMillis();
        }
        e.wanted = status;
        e.wantedGist = gist;
        scheduleCheck(status.workload(), e, dueAt(e));
    }

    /** From the engine thread: the Workload no longer waits (admitted, finished, gone); nothing pending is written. */
    public synchronized void forget(WorkloadKey key) {
        entries.remove(key);
    }

    synchronized int tracked() {
        return entries.size();
    }

    /** When the wanted status may be written: a new gist after delay, new figures only after refresh. */
    private long dueAt(Entry e) {
        if (e.writtenMessage == null) {
            return e.wantedSince + delayMillis;
        }
        if (e.writtenReason == e.wanted.reason() && e.writtenUnadmitted == e.wanted.unadmittedReason()
                && e.writtenGist.equals(e.wantedGist)) {
            return e.writtenAt + refreshMillis;
        }
        return Math.max(e.wantedSince, e.writtenAt) + delayMillis;
    }

    static String gist(String message) {
        return message == null ? "" : FIGURES.matcher(message).replaceAll("#");
    }

    private void scheduleCheck(WorkloadKey key, Entry e, long at) {
        if (e.writing || at >= e.checkAt) {
            return; // a check already comes soon enough (or the write in progress reschedules)
        }
        e.checkAt = at;
        timer.schedule(() -> check(key, e, at), Math.max(0, at - timer.nowMillis()));
    }

    /** The timer fired: hand the write to the Workload's lane if it is still wanted and due. */
    private synchronized void check(WorkloadKey key, Entry e, long scheduledFor) {
        if (entries.get(key) != e) {
            return; // forgotten since
        }
        if (e.checkAt == scheduledFor) {
            e.checkAt = Long.MAX_VALUE;
        }
        if (e.wanted == null || e.writing) {
            return;
        }
        long due = dueAt(e);
        if (due > timer.nowMillis()) {
            scheduleCheck(key, e, due);
            return;
        }
        e.writing = true;
        lane.accept(key, () -> write(key, e));
    }

    /** On the Workload's lane. */
    private void write(WorkloadKey key, Entry e) {
        PendingStatus status;
        String gist;
        synchronized (this) {
            if (entries.get(key) != e || e.wanted == null) {
                e.writing = false;
                return;
            }
            status = e.wanted;
            gist = e.wantedGist;
        }
        boolean ok;
        try {
            ok = writer.write(status);
        } catch (RuntimeException ex) {
            ok = false;
        }
        synchronized (this) {
            e.writing = false;
            if (entries.get(key) != e) {
                return;
            }
            if (ok) {
                e.writtenReason = status.reason();
                e.writtenUnadmitted = status.unadmittedReason();
                e.writtenMessage = status.message();
                e.writtenGist = gist;
                e.writtenAt = timer.nowMillis();
                if (Objects.equals(e.wanted, status)) {
                    e.wanted = null;
                }
            }
            if (e.wanted != null) {
                scheduleCheck(key, e, ok ? dueAt(e) : timer.nowMillis() + RETRY_MILLIS);
            }
        }
    }
}
