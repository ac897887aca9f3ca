package dev.sluice.readiness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One due time per key, and the keys due by a given time in time order: the waitForPodsReady timers (timeouts,
 * backoffs) checked by a periodic tick without looking at every workload. Not thread-safe.
 */
public final class DueTimes<K extends Comparable<K>> {
    private final Map<K, Long> byKey = new HashMap<>();
    private final TreeMap<Long, TreeSet<K>> byTime = new TreeMap<>();

    /** Sets (or moves) the key's due time. */
    public void put(K key, long atMillis) {
        Long before = byKey.put(key, atMillis);
        if (before != null) {
            if (before == atMillis) {
                return;
            }
            unlink(key, before);
        }
        byTime.computeIfAbsent(atMillis, t -> new TreeSet<>()).add(key);
    }

    public void remove(K key) {
        Long before = byKey.remove(key);
        if (before != null) {
            unlink(key, before);
        }
    }

    public Long get(K key) {
        return byKey.get(key);
    }

    /** Removes and returns the keys due at or before {@code nowMillis}, earliest first. */
    public List<K> takeDue(long nowMillis) {
        List<K> due = new ArrayList<>();
        while (!byTime.isEmpty() && byTime.firstKey() <= nowMillis) {
            for (K k : byTime.pollFirstEntry().getValue()) {
                byKey.remove(k);
                due.add(k);
            }
        }
        return due;
    }

    /** The earliest due time, or null when nothing is due ever. */
    public Long next() {
        return byTime.isEmpty() ? null : byTime.firstKey();
    }

    public int size() {
        return byKey.size();
    }

    private void unlink(K key, long at) {
        TreeSet<K> keys = byTime.get(at);
        if (keys != null) {
            keys.remove(key);
            if (keys.isEmpty()) {
                byTime.remove(at);
            }
        }
    }
}
