package dev.sluice.engine;

import java.util.Map;
import java.util.TreeMap;

/**
 * Admission fair sharing's books: per LocalQueue, the consumed resources decayed with the half-life (Kueue's
 * status.fairSharing.admissionFairSharingStatus.consumedResources) and the time of the last sample. Between samples
 * each admission adds an entry penalty (the admitted request times the decay of one interval, Kueue's KEP-4136
 * entry penalty), so a LocalQueue cannot take every slot before its usage is next sampled; a sample folds the
 * penalty into the current usage and clears it. Amounts are in Kubernetes units (cores, bytes), as Kueue's are.
 */
final class LocalQueueUsage {
    private static final class Book {
        final TreeMap<String, Double> consumed = new TreeMap<>();
        final TreeMap<String, Double> penalty = new TreeMap<>();
        long lastUpdate;
    }

    private final AdmissionFairSharing config;
    private final QueueManager queues;
    private final TreeMap<String, Book> books = new TreeMap<>();

    LocalQueueUsage(AdmissionFairSharing config, QueueManager queues) {
        this.config = config;
        this.queues = queues;
    }

    boolean enabled() {
        return config.enabled();
    }

    /** Samples every LocalQueue whose interval has passed; a new LocalQueue starts at zero, sampled now. */
    void sample(long nowMillis) {
        if (!config.enabled()) {
            return;
        }
        books.keySet().retainAll(queues.localQueues.keySet());
        for (String lq : queues.localQueues.keySet()) {
            Book b = books.get(lq);
            if (b == null) {
                b = new Book();
                b.lastUpdate = nowMillis;
                books.put(lq, b);
                continue;
            }
            long elapsed = nowMillis - b.lastUpdate;
            if (elapsed < config.usageSamplingIntervalMillis()) {
                continue;
            }
            double alpha = config.alpha(elapsed);
            Map<String, Double> current = currentUsage(lq);
            TreeMap<String, Double> next = new TreeMap<>();
            for (String res : union(b.consumed, current)) {
                double v = b.consumed.getOrDefault(res, 0.0) * (1 - alpha) + current.getOrDefault(res, 0.0) * alpha;
                if (v > 0) {
                    next.put(res, v);
                }
            }
            b.consumed.clear();
            b.consumed.putAll(next);
            b.penalty.clear();
            b.lastUpdate = nowMillis;
        }
    }

    /** A workload of the LocalQueue was admitted with this usage: its entry penalty counts until the next sample. */
    void admitted(WorkloadRecord r) {
        if (!config.enabled() || r.spec.queueName() == null) {
            return;
        }
        Book b = books.get(QueueManager.lqKey(r.key().namespace(), r.spec.queueName()));
        if (b == null) {
            return; // a LocalQueue not yet sampled; its first sample starts it
        }
        double alpha = config.alpha(config.usageSamplingIntervalMillis());
        r.usage.forEach((fr, milli) -> b.penalty.merge(fr.resource(), alpha * milli / 1000.0, Double::sum));
    }

    /** The LocalQueue's usage in Kueue's ordering: the weighted sum of consumed and penalty, over its weight. */
    double weightedUsage(String lqKey) {
        Book b = books.get(lqKey);
        LocalQueueSpec lq = queues.localQueues.get(lqKey);
        double weight = lq == null ? 1.0 : lq.weight();
        if (b == null) {
            return weight <= 0 ? Double.POSITIVE_INFINITY : 0.0;
        }
        double sum = 0;
        for (Map.Entry<String, Double> e : b.consumed.entrySet()) {
            sum += config.resourceWeight(e.getKey()) * e.getValue();
        }
        for (Map.Entry<String, Double> e : b.penalty.entrySet()) {
            sum += config.resourceWeight(e.getKey()) * e.getValue();
        }
        if (weight <= 0) {
            return Double.POSITIVE_INFINITY; // Kueue v0.19's CalculateUsage: a zero weight always goes last
        }
        return sum / weight;
    }

    double weightedUsage(WorkloadRecord r) {
        return weightedUsage(QueueManager.lqKey(r.key().namespace(), r.spec.queueName()));
    }

    /** The decayed consumed resources of a LocalQueue (without the entry penalty), or null if never sampled. */
    Map<String, Double> consumed(String lqKey) {
        Book b = books.get(lqKey);
        return b == null ? null : Map.copyOf(b.consumed);
    }

    /** When the next LocalQueue is due to be sampled (engine ms), or empty if none is booked or AFS is off. */
    java.util.OptionalLong nextSampleMillis() {
        if (!config.enabled() || books.isEmpty()) {
            return java.util.OptionalLong.empty();
        }
        long earliest = Long.MAX_VALUE;
        for (Book b : books.values()) {
            earliest = Math.min(earliest, b.lastUpdate);
        }
        return java.util.OptionalLong.of(earliest + config.usageSamplingIntervalMillis());
    }

    /** The entry penalties since the LocalQueue's last sample, or null if never sampled. */
    Map<String, Double> penalty(String lqKey) {
        Book b = books.get(lqKey);
        return b == null ? null : Map.copyOf(b.penalty);
    }

    /** Books a LocalQueue from a recorded sample (amounts below or at zero, NaN or infinite are left out). */
    void restore(String lqKey, Map<String, Double> consumed, Map<String, Double> penalty, long lastUpdateMillis) {
        if (!config.enabled() || !queues.localQueues.containsKey(lqKey)) {
            return;
        }
        Book b = new Book();
        b.lastUpdate = lastUpdateMillis;
        copyPositive(consumed, b.consumed);
        copyPositive(penalty, b.penalty);
        books.put(lqKey, b);
    }

    private static void copyPositive(Map<String, Double> from, Map<String, Double> to) {
        if (from != null) {
            from.forEach((res, v) -> {
                if (v != null && v > 0 && !v.isInfinite()) {
                    to.put(res, v);
                }
            });
        }
    }

    Long lastUpdate(String lqKey) {
        Book b = books.get(lqKey);
        return b == null ? null : b.lastUpdate;
    }

    /** What the LocalQueue's admitted workloads hold now, per resource name over all flavors. */
    private Map<String, Double> currentUsage(String lqKey) {
        Map<String, Double> out = new TreeMap<>();
        for (WorkloadKey k : queues.members(lqKey)) {
            WorkloadRecord r = queues.workload(k);
            if (r.phase == WorkloadPhase.ADMITTED || r.phase == WorkloadPhase.EVICTING) {
                r.usage.forEach((fr, milli) -> out.merge(fr.resource(), milli / 1000.0, Double::sum));
            }
        }
        return out;
    }

    private static java.util.Set<String> union(Map<String, Double> a, Map<String, Double> b) {
        java.util.TreeSet<String> s = new java.util.TreeSet<>(a.keySet());
        s.addAll(b.keySet());
        return s;
    }
}
