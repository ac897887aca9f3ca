package dev.sluice.engine;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * A ClusterQueue's waiting workloads: higher priority first, then earlier queue time (creation, or eviction
 * after an eviction), then key. Heads found inadmissible are parked until something relevant changes.
 */
final class PendingQueue {
    static final Comparator<WorkloadRecord> ORDER = Comparator
            .comparingInt((WorkloadRecord r) -> -r.spec.priority())
            .thenComparingLong(r -> r.queueTime)
            .thenComparing(r -> r.spec.key());

    private final TreeSet<WorkloadRecord> active = new TreeSet<>(ORDER);
    private final TreeSet<WorkloadRecord> parked = new TreeSet<>(ORDER);

    void push(WorkloadRecord r) {
        parked.remove(r);
        active.add(r);
    }

    void park(WorkloadRecord r) {
        active.remove(r);
        parked.add(r);
    }

    boolean remove(WorkloadRecord r) {
        return active.remove(r) | parked.remove(r);
    }

    WorkloadRecord pollHead() {
        return active.pollFirst();
    }

    /** Something changed that may let parked workloads in: give them another try. */
    void wakeParked() {
        if (!parked.isEmpty()) {
            active.addAll(parked);
            parked.clear();
        }
    }

    boolean isParked(WorkloadRecord r) {
        return parked.contains(r);
    }

    int size() {
        return active.size() + parked.size();
    }

    int parkedCount() {
        return parked.size();
    }

    boolean hasActive() {
        return !active.isEmpty();
    }

    Iterable<WorkloadRecord> all() {
        TreeSet<WorkloadRecord> all = new TreeSet<>(ORDER);
        all.addAll(active);
        all.addAll(parked);
        return all;
    }
}
