package dev.sluice.engine;

/** How a ClusterQueue treats a head it cannot admit. */
public enum QueueingStrategy {
    StrictFIFO, BestEffortFIFO
}
