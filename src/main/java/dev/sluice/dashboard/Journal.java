package dev.sluice.dashboard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to Workloads lately, for the dashboard: the events Sluice records on them (QuotaReserved, Admitted,
 * Preempted with the preemptor, Evicted, Requeued, Finished, ...), kept in memory and bounded: the latest
 * {@code recentLimit} overall and the last {@code perWorkload} of each of at most {@code workloadsLimit} Workloads
 * (the least recently touched dropped first). Thread-safe: written by the controller, read by the dashboard.
 */
public final class Journal {

    /** One thing that happened to a Workload; preemptor "namespace/name" for a preemption, else null. */
    public record Entry(long atMillis, String namespace, String workload, String type, String reason, String message,
            String preemptor) {
    }

    private final int recentLimit;
    private final int workloadsLimit;
    private final int perWorkload;
    private final ArrayDeque<Entry> recent = new ArrayDeque<>();
    private final LinkedHashMap<String, ArrayDeque<Entry>> byWorkload = new LinkedHashMap<>(64, 0.75f, true);

    public Journal(int recentLimit, int workloadsLimit, int perWorkload) {
        if (recentLimit < 1 || workloadsLimit < 1 || perWorkload < 1) {
            throw new IllegalArgumentException("journal bounds must be at least 1, got " + recentLimit + ", "
                    + workloadsLimit + ", " + perWorkload);
        }
        this.recentLimit = recentLimit;
        this.workloadsLimit = workloadsLimit;
        this.perWorkload = perWorkload;
    }

    /** The controller's bounds: 200 recent, 20 each of 5,000 Workloads (a few MB at most). */
    public static Journal standard() {
        return new Journal(200, 5_000, 20);
    }

    public synchronized void record(Entry e) {
        // QuotaReserved and Admitted come together (no admission checks): the recent list shows Admitted only
        if (!"QuotaReserved".equals(e.reason())) {
            recent.addFirst(e);
            if (recent.size() > recentLimit) {
                recent.removeLast();
            }
        }
        ArrayDeque<Entry> h = byWorkload.computeIfAbsent(e.namespace() + "/" + e.workload(), k -> new ArrayDeque<>());
        h.addLast(e);
        if (h.size() > perWorkload) {
            h.removeFirst();
        }
        if (byWorkload.size() > workloadsLimit) {
            Iterator<Map.Entry<String, ArrayDeque<Entry>>> eldest = byWorkload.entrySet().iterator();
            eldest.next();
            eldest.remove();
        }
    }

    /** The latest entries, newest first. */
    public synchronized List<Entry> recent(int max) {
        List<Entry> out = new ArrayList<>(Math.min(max, recent.size()));
        for (Entry e : recent) {
            if (out.size() >= max) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    /** A Workload's entries, oldest first (empty if none kept). */
    public synchronized List<Entry> history(String namespace, String name) {
        ArrayDeque<Entry> h = byWorkload.get(namespace + "/" + name);
        return h == null ? List.of() : List.copyOf(h);
    }
}
