package dev.sluice.readiness;

/**
 * Where a workload evicted for PodsReadyTimeout goes back in its queue (Kueue's {@code requeuingStrategy.timestamp}):
 * by the time of the eviction (behind what waited meanwhile) or by its creation (its old place).
 */
public enum RequeuingTimestamp {
    Eviction, Creation
}
