package dev.sluice.controller.cache;

import dev.sluice.bridge.Nodes;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the pods not placed by topology-aware scheduling take of each node (Kueue's nonTasUsageCache): per pod only
 * its node and its usage (requests plus one pod slot), and per node the sum, kept up to date as pods come, change and
 * go. A TAS pod, an unscheduled pod and a terminated one hold nothing here. Thread-safe: the informer's thread
 * updates, the engine thread reads.
 */
final class NonTasUsage {

    /** A counted pod: its node and what it takes of it. */
    record PodUsage(String node, Map<String, Long> usage) {
    }

    /** A node's sum, holding the one String of the node's name its pods share. */
    private record NodeSum(String node, Map<String, Long> usage) {
    }

    private final Map<String, PodUsage> pods = new HashMap<>();
    private final Map<String, NodeSum> perNode = new HashMap<>();

    /**
     * The pod as it is now: counted when it counts ({@link Nodes#countsAsNonTas}), dropped otherwise. Whether a node's
     * sum changed.
     */
    synchronized boolean update(String key, Pod pod) {
        if (!Nodes.countsAsNonTas(pod)) {
            return remove(key);
        }
        Map<String, Long> usage = Nodes.podUsage(pod.getSpec());
        if (usage == null) {
            usage = Map.of(Nodes.PODS, 1000L); // requests that cannot be read: the pod still takes its slot
        }
        String node = pod.getSpec().getNodeName();
        PodUsage now = new PodUsage(node, Map.copyOf(usage));
        PodUsage before = pods.get(key);
        if (now.equals(before)) {
            return false;
        }
        if (before != null) {
            subtract(before);
        }
        // one String per node, whatever number of pods run on it
        NodeSum sum = perNode.computeIfAbsent(node, n -> new NodeSum(n, new TreeMap<>()));
        now = new PodUsage(sum.node(), now.usage());
        pods.put(key, now);
        now.usage().forEach((r, v) -> sum.usage().merge(r, v, Long::sum));
        return true;
    }

    /** The pod is gone (or no longer counts); whether it was counted. Idempotent. */
    synchronized boolean remove(String key) {
        PodUsage before = pods.remove(key);
        if (before == null) {
            return false;
        }
        subtract(before);
        return true;
    }

    private void subtract(PodUsage u) {
        NodeSum node = perNode.get(u.node());
        if (node == null) {
            return;
        }
        Map<String, Long> sum = node.usage();
        u.usage().forEach((r, v) -> sum.merge(r, -v, Long::sum));
        // as Kueue: a node without counted pods has no entry (its pod slots count to zero)
        if (sum.getOrDefault(Nodes.PODS, 0L) <= 0) {
            perNode.remove(u.node());
        }
    }

    /** Per node, the sum of the counted pods' usage (a copy). */
    synchronized Map<String, Map<String, Long>> perNode() {
        Map<String, Map<String, Long>> out = new HashMap<>();
        perNode.forEach((n, sum) -> out.put(n, Map.copyOf(sum.usage())));
        return out;
    }

    /** Pods counted now. */
    synchronized int pods() {
        return pods.size();
    }

    synchronized void clear() {
        pods.clear();
        perNode.clear();
    }

    @Override
    public synchronized String toString() {
        return Objects.toString(perNode());
    }
}
