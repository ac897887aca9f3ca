package dev.sluice.engine;

import java.util.Comparator;
import java.util.Objects;

/** Identifies a workload: namespace and name. */
public record WorkloadKey(String namespace, String name) implements Comparable<WorkloadKey> {
    private static final Comparator<WorkloadKey> ORDER =
            Comparator.comparing(WorkloadKey::namespace).thenComparing(WorkloadKey::name);

    public WorkloadKey {
        Objects.requireNonNull(namespace, "workload namespace");
        Objects.requireNonNull(name, "workload name");
    }

    @Override
    public int compareTo(WorkloadKey o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
