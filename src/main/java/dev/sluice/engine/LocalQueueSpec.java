package dev.sluice.engine;

import java.util.Objects;

/** A LocalQueue: where a namespace's workloads wait, pointing at a ClusterQueue. */
public record LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
    public LocalQueueSpec {
        Objects.requireNonNull(namespace, "LocalQueue namespace");
        Objects.requireNonNull(name, "LocalQueue name");
        Objects.requireNonNull(clusterQueue, "LocalQueue spec.clusterQueue");
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
    }
}
