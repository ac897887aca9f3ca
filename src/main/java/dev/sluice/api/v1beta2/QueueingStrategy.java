package dev.sluice.api.v1beta2;

/** How a ClusterQueue orders and retries its pending workloads (Kueue's names). */
public enum QueueingStrategy {
    StrictFIFO, BestEffortFIFO
}
