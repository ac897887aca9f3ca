package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Evictions decided since the last cycle. An evicted workload keeps its quota until the caller reports it
 * stopped (evictionDone); it queues again at the latest time the engine was told, as Kueue requeues at eviction.
 */
final class Evictions {
    private final QuotaCache cache;
    private final List<Eviction> queued = new ArrayList<>();
    /** The latest time any call reported; eviction times are taken from it. */
    private long lastNow;

    Evictions(QuotaCache cache) {
        this.cache = cache;
    }

    void advance(long nowMillis) {
        lastNow = Math.max(lastNow, nowMillis);
    }

    void evict(WorkloadRecord r, EvictionReason reason, PreemptionReason preemptionReason,
               WorkloadRecord preemptor, String message) {
        r.phase = WorkloadPhase.EVICTING;
        ClusterQueueState cq = cache.get(r.clusterQueue);
        if (cq != null) {
            cq.markEvicting(r);
        } else {
            r.evicted = true;
        }
        r.queueTime = lastNow;
        r.message = message;
        queued.add(new Eviction(r.key(), reason, preemptionReason,
                preemptor == null ? null : preemptor.key(), message));
    }

    /** Evicts every workload the queue admitted (a stop with HoldAndDrain). */
    void evictAdmitted(Iterable<WorkloadRecord> records, EvictionReason reason, String message) {
        for (WorkloadRecord r : records) {
            if (r.phase == WorkloadPhase.ADMITTED) {
                evict(r, reason, null, null, message);
            }
        }
    }

    /** Puts back decisions taken out with {@link #drain} that are not the caller's to apply. */
    void requeueAll(List<Eviction> decisions) {
        queued.addAll(0, decisions);
    }

    List<Eviction> drain() {
        List<Eviction> out = new ArrayList<>(queued);
        queued.clear();
        return out;
    }
}
