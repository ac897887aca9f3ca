package dev.sluice.engine;

import java.util.List;

/**
 * What decides whether a workload fits (namespace, priority, pod sets); hash computed once. With localQueue set
 * (queues ordered by admission fair sharing, where the LocalQueue decides the order) also its LocalQueue.
 */
final class WorkloadShape {
    private final String namespace;
    private final int priority;
    private final List<PodSetSpec> podSets;
    private final String localQueue;
    private final int hash;

    WorkloadShape(WorkloadSpec spec) {
        this(spec, false);
    }

    WorkloadShape(WorkloadSpec spec, boolean withLocalQueue) {
        this.namespace = spec.key().namespace();
        this.priority = spec.priority();
        this.podSets = spec.podSets();
        this.localQueue = withLocalQueue ? String.valueOf(spec.queueName()) : null;
        this.hash = 31 * (31 * (31 * namespace.hashCode() + priority) + podSets.hashCode())
                + java.util.Objects.hashCode(localQueue);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkloadShape s && s.hash == hash && s.priority == priority
                && s.namespace.equals(namespace) && s.podSets.equals(podSets)
                && java.util.Objects.equals(s.localQueue, localQueue);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
