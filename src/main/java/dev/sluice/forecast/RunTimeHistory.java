package dev.sluice.forecast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Observed run times of finished workloads per LocalQueue (namespace/name) and priority: the last few of each, for
 * a small bounded memory (at most {@link #MAX_GROUPS} groups of {@link #PER_GROUP}, the least recently used group
 * dropped first). Not thread-safe.
 */
public final class RunTimeHistory {
    static final int PER_GROUP = 20;
    static final int MAX_GROUPS = 1000;

    private final Map<String, Deque<Long>> groups = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Long>> eldest) {
            return size() > MAX_GROUPS;
        }
    };

    private static String group(String namespace, String localQueue, int priority) {
        return namespace + "/" + localQueue + "/" + priority;
    }

    public void record(String namespace, String localQueue, int priority, long runMillis) {
        if (runMillis < 0) {
            return;
        }
        Deque<Long> d = groups.computeIfAbsent(group(namespace, localQueue, priority), g -> new ArrayDeque<>());
        if (d.size() == PER_GROUP) {
            d.removeFirst();
        }
        d.addLast(runMillis);
    }

    /** The median observed run time, or null when none was observed. */
    public Long median(String namespace, String localQueue, int priority) {
        Deque<Long> d = groups.get(group(namespace, localQueue, priority));
        if (d == null || d.isEmpty()) {
            return null;
        }
        List<Long> sorted = new ArrayList<>(d);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
