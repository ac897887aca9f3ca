package dev.sluice.engine;

import java.util.Objects;

/**
 * A LocalQueue: where a namespace's workloads wait, pointing at a ClusterQueue. fairSharingWeight is Kueue's
 * spec.fairSharing.weight for admission fair sharing (null = 1; a LocalQueue's usage is divided by it, so a weight of
 * 2 gets about twice the admissions of a weight of 1 under steady load; 0 = only after every other LocalQueue).
 */
public record LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy,
                             Double fairSharingWeight) {
    public LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
        this(namespace, name, clusterQueue, stopPolicy, null);
    }

    public LocalQueueSpec {
        Objects.requireNonNull(namespace, "LocalQueue namespace");
        Objects.requireNonNull(name, "LocalQueue name");
        Objects.requireNonNull(clusterQueue, "LocalQueue spec.clusterQueue");
        if (fairSharingWeight != null && (fairSharingWeight < 0 || fairSharingWeight.isNaN()
                || fairSharingWeight.isInfinite())) {
            throw new IllegalArgumentException("LocalQueue " + namespace + "/" + name
                    + ": spec.fairSharing.weight must be a finite number >= 0, got " + fairSharingWeight);
        }
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
    }

    /** The same LocalQueue with another admission fair sharing weight. */
    public LocalQueueSpec withFairSharingWeight(Double weight) {
        return new LocalQueueSpec(namespace, name, clusterQueue, stopPolicy, weight);
    }

    public double weight() {
        return fairSharingWeight == null ? 1.0 : fairSharingWeight;
    }
}
