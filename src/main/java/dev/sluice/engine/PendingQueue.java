package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A ClusterQueue's waiting workloads: higher priority first, then earlier queue time (creation, or eviction
 * after an eviction), then key. Heads found inadmissible are parked until something relevant changes.
 *
 * <p>Parked workloads are grouped by shape (namespace, priority, pod sets): workloads of one shape fare
 * alike against the same quota, so a wake-up moves only the first of each group back; the next follows
 * once that one leaves the queue without being parked again. A wake-up thus costs the number of shapes, not
 * the number of parked workloads.
 */
final class PendingQueue {
    static final Comparator<WorkloadRecord> ORDER = Comparator
            .comparingInt((WorkloadRecord r) -> -r.spec.priority())
            .thenComparingLong(r -> r.queueTime)
            .thenComparing(r -> r.spec.key());

    private final TreeSet<WorkloadRecord> active = new TreeSet<>(ORDER);
    /** Lookup by shape; iteration order does not matter (every group is treated alike). */
    private final Map<WorkloadShape, TreeSet<WorkloadRecord>> parked = new HashMap<>();
    private int parkedCount;

    void push(WorkloadRecord r) {
        unpark(r);
        active.add(r);
    }

    void park(WorkloadRecord r) {
        active.remove(r);
        r.awake = false;
        if (parked.computeIfAbsent(r.shape, s -> new TreeSet<>(ORDER)).add(r)) {
            parkedCount++;
        }
    }

    boolean remove(WorkloadRecord r) {
        if (active.remove(r)) {
            if (r.awake) {
                r.awake = false;
                promoteNext(r.shape);
            }
            return true;
        }
        return unpark(r);
    }

    private boolean unpark(WorkloadRecord r) {
        TreeSet<WorkloadRecord> group = parked.get(r.shape);
        if (group != null && group.remove(r)) {
            parkedCount--;
            if (group.isEmpty()) {
                parked.remove(r.shape);
            }
            return true;
        }
        return false;
    }

    WorkloadRecord pollHead() {
        return active.pollFirst();
    }

    /** A woken workload left the queue without being parked again: its group may have a chance too. */
    void leftQueue(WorkloadRecord r) {
        if (r.awake) {
            r.awake = false;
            promoteNext(r.shape);
        }
    }

    private void promoteNext(WorkloadShape shape) {
        TreeSet<WorkloadRecord> group = parked.get(shape);
        if (group == null) {
            return;
        }
        WorkloadRecord next = group.pollFirst();
        parkedCount--;
        if (group.isEmpty()) {
            parked.remove(shape);
        }
        next.awake = true;
        active.add(next);
    }

    /** Something changed that may let parked workloads in: the first of each shape gets another try. */
    void wakeParked() {
        if (parked.isEmpty()) {
            return;
        }
        List<WorkloadShape> shapes = new ArrayList<>(parked.keySet());
        for (WorkloadShape s : shapes) {
            promoteNext(s);
        }
    }

    boolean isParked(WorkloadRecord r) {
        TreeSet<WorkloadRecord> group = parked.get(r.shape);
        return group != null && group.contains(r);
    }

    int size() {
        return active.size() + parkedCount;
    }

    int parkedCount() {
        return parkedCount;
    }

    boolean hasActive() {
        return !active.isEmpty();
    }

    Iterable<WorkloadRecord> all() {
        TreeSet<WorkloadRecord> all = new TreeSet<>(ORDER);
        all.addAll(active);
        parked.values().forEach(all::addAll);
        return all;
    }
}
