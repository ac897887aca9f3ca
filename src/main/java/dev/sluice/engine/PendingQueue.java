package dev.sluice.engine;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
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
    static final Comparator<WorkloadRecord> ORDER = (a, b) -> {
        if (a.spec.priority() != b.spec.priority()) {
            return Integer.compare(b.spec.priority(), a.spec.priority());
        }
        if (a.queueTime != b.queueTime) {
            return Long.compare(a.queueTime, b.queueTime);
        }
        return a.spec.key().compareTo(b.spec.key());
    };

    private final TreeSet<WorkloadRecord> active = new TreeSet<>(ORDER);
    /** Lookup by shape; iteration order does not matter (every group is treated alike). */
    private final Map<WorkloadShape, TreeSet<WorkloadRecord>> parked = new HashMap<>();
    private int parkedCount;
    /**
     * Shapes with a woken workload still waiting to be tried (at most one each): another wake-up before that
     * try adds nothing, since the try sees every change so far. Lookup only.
     */
    private final Set<WorkloadShape> awakeShapes = new HashSet<>();

    /**
     * Under admission fair sharing the LocalQueue decides the order, so workloads of one shape but different
     * LocalQueues are no longer alike: the groups are split by LocalQueue.
     */
    private boolean byLocalQueue;

    private WorkloadShape group(WorkloadRecord r) {
        return byLocalQueue ? r.localQueueShape() : r.shape;
    }

    /** Switches the grouping; on a change every parked workload gets another try (the groups are rebuilt). */
    void groupByLocalQueue(boolean on) {
        if (on == byLocalQueue) {
            return;
        }
        for (WorkloadRecord r : active) {
            r.awake = false;
        }
        for (TreeSet<WorkloadRecord> g : parked.values()) {
            active.addAll(g);
        }
        parked.clear();
        parkedCount = 0;
        awakeShapes.clear();
        byLocalQueue = on;
    }

    void push(WorkloadRecord r) {
        unpark(r);
        active.add(r);
    }

    void park(WorkloadRecord r) {
        active.remove(r);
        sleep(r);
        if (parked.computeIfAbsent(group(r), s -> new TreeSet<>(ORDER)).add(r)) {
            parkedCount++;
        }
    }

    boolean remove(WorkloadRecord r) {
        if (active.remove(r)) {
            if (r.awake) {
                sleep(r);
                promoteNext(group(r));
            }
            return true;
        }
        return unpark(r);
    }

    private boolean unpark(WorkloadRecord r) {
        TreeSet<WorkloadRecord> group = parked.get(group(r));
        if (group != null && group.remove(r)) {
            parkedCount--;
            if (group.isEmpty()) {
                parked.remove(group(r));
            }
            return true;
        }
        return false;
    }

    WorkloadRecord pollHead() {
        return active.pollFirst();
    }

    /**
     * Admission fair sharing's head: the LocalQueue with the lowest usage goes first, ties by the usual order.
     * Usage changes under the queue, so it is not part of the set's order: the first of each LocalQueue (in the
     * usual order) is a candidate, and the candidate of the lowest usage wins. Costs a pass over the active
     * workloads; only queues with admission fair sharing pay it.
     */
    WorkloadRecord pollHead(java.util.function.ToDoubleFunction<WorkloadRecord> localQueueUsage) {
        WorkloadRecord best = null;
        double bestUsage = 0;
        Set<String> seen = new HashSet<>();
        for (WorkloadRecord r : active) {
            if (!seen.add(r.key().namespace() + "/" + r.spec.queueName())) {
                continue;
            }
            double u = localQueueUsage.applyAsDouble(r);
            if (best == null || u < bestUsage) {
                best = r;
                bestUsage = u;
            }
        }
        if (best != null) {
            active.remove(best);
        }
        return best;
    }

    /** Takes r as the head, if it waits unparked (a sticky preemptor); false if parked or not here. */
    boolean pollIfActive(WorkloadRecord r) {
        return active.remove(r);
    }

    /** A woken workload left the queue without being parked again: its group may have a chance too. */
    void leftQueue(WorkloadRecord r) {
        if (r.awake) {
            sleep(r);
            promoteNext(group(r));
        }
    }

    private void sleep(WorkloadRecord r) {
        if (r.awake) {
            r.awake = false;
            awakeShapes.remove(group(r));
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
        awakeShapes.add(shape);
        active.add(next);
    }

    /** Something changed that may let parked workloads in: the first of each shape gets another try. */
    void wakeParked() {
        if (parked.isEmpty()) {
            return;
        }
        // Called for every member of a cohort on every release: no copy of the keys, removal through the iterator.
        Iterator<Map.Entry<WorkloadShape, TreeSet<WorkloadRecord>>> groups = parked.entrySet().iterator();
        while (groups.hasNext()) {
            Map.Entry<WorkloadShape, TreeSet<WorkloadRecord>> group = groups.next();
            if (awakeShapes.contains(group.getKey())) {
                continue;
            }
            WorkloadRecord next = group.getValue().pollFirst();
            parkedCount--;
            if (group.getValue().isEmpty()) {
                groups.remove();
            }
            next.awake = true;
            awakeShapes.add(group.getKey());
            active.add(next);
        }
    }

    /** For tests: awakeShapes names exactly the shapes of the woken workloads, one each; none is parked. */
    boolean awakeConsistent() {
        Set<WorkloadShape> seen = new HashSet<>();
        for (WorkloadRecord r : active) {
            if (r.awake && !seen.add(group(r))) {
                return false;
            }
        }
        for (TreeSet<WorkloadRecord> group : parked.values()) {
            for (WorkloadRecord r : group) {
                if (r.awake) {
                    return false;
                }
            }
        }
        return seen.equals(awakeShapes);
    }

    boolean isParked(WorkloadRecord r) {
        TreeSet<WorkloadRecord> group = parked.get(group(r));
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

    /**
     * Each waiting workload once, with whether it is parked, in no order a caller may rely on: for counting, without
     * the sorted copy {@link #all} makes or a lookup per workload.
     */
    void forEachWaiting(java.util.function.BiConsumer<WorkloadRecord, Boolean> visit) {
        for (WorkloadRecord r : active) {
            visit.accept(r, Boolean.FALSE);
        }
        for (TreeSet<WorkloadRecord> group : parked.values()) {
            for (WorkloadRecord r : group) {
                visit.accept(r, Boolean.TRUE);
            }
        }
    }

    Iterable<WorkloadRecord> all() {
        TreeSet<WorkloadRecord> all = new TreeSet<>(ORDER);
        all.addAll(active);
        parked.values().forEach(all::addAll);
        return all;
    }
}
