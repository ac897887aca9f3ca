package dev.sluice.engine;

import java.util.List;

/** What decides whether a workload fits (namespace, priority, pod sets); hash computed once. */
final class WorkloadShape {
    private final String namespace;
    private final int priority;
    private final List<PodSetSpec> podSets;
    private final int hash;

    WorkloadShape(WorkloadSpec spec) {
        this.namespace = spec.key().namespace();
        this.priority = spec.priority();
        this.podSets = spec.podSets();
        this.hash = 31 * (31 * namespace.hashCode() + priority) + podSets.hashCode();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkloadShape s && s.hash == hash && s.priority == priority
                && s.namespace.equals(namespace) && s.podSets.equals(podSets);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
