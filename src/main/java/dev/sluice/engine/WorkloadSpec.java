package dev.sluice.engine;

import java.util.List;
import java.util.Objects;

/** A workload as the engine sees it; queueName is a LocalQueue in key.namespace. */
public record WorkloadSpec(WorkloadKey key, String uid, String queueName, int priority, long creationTimeMillis,
                           List<PodSetSpec> podSets, boolean active) {
    public WorkloadSpec {
        Objects.requireNonNull(key, "workload key");
        uid = uid == null ? "" : uid;
        podSets = podSets == null ? List.of() : List.copyOf(podSets);
    }
}
