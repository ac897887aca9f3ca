package dev.sluice.visibility;

import dev.sluice.engine.WorkloadKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One page of a queue's pending list, with both positions counted as Kueue counts them (from 0): the position in
 * the ClusterQueue is the index in the ClusterQueue's order; the position in the LocalQueue counts only the
 * workloads of the same LocalQueue (namespace and name) before it.
 */
final class PendingPage {

    /** A workload of the page and its two positions. */
    record Entry(WorkloadKey key, int positionInClusterQueue, int positionInLocalQueue) {
    }

    private PendingPage() {
    }

    /**
     * The ClusterQueue's entries from offset, at most limit of them.
     *
     * @param order the ClusterQueue's pending workloads, first to be tried first
     * @param localQueueOf a workload's LocalQueue name (in its namespace)
     */
    static List<Entry> ofClusterQueue(List<WorkloadKey> order, Function<WorkloadKey, String> localQueueOf,
            long offset, long limit) {
        List<Entry> out = new ArrayList<>((int) Math.min(limit, Math.max(0, order.size() - offset)));
        Map<String, Integer> seenPerLocalQueue = new HashMap<>();
        long end = Math.min(order.size(), offset + limit);
        for (int i = 0; i < end; i++) {
            WorkloadKey k = order.get(i);
            int inLocalQueue = seenPerLocalQueue.merge(k.namespace() + "/" + localQueueOf.apply(k), 1, Integer::sum) - 1;
            if (i >= offset) {
                out.add(new Entry(k, i, inLocalQueue));
            }
        }
        return out;
    }

    /** The entries of one LocalQueue (namespace and name) of the ClusterQueue's order, from offset, at most limit. */
    static List<Entry> ofLocalQueue(List<WorkloadKey> order, Function<WorkloadKey, String> localQueueOf,
            String namespace, String localQueue, long offset, long limit) {
        List<Entry> out = new ArrayList<>();
        long skipped = 0;
        for (int i = 0; i < order.size() && out.size() < limit; i++) {
            WorkloadKey k = order.get(i);
            if (!k.namespace().equals(namespace) || !localQueue.equals(localQueueOf.apply(k))) {
                continue;
            }
            if (skipped < offset) {
                skipped++;
            } else {
                out.add(new Entry(k, i, (int) (offset + out.size())));
            }
        }
        return out;
    }
}
