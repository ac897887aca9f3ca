package dev.sluice.engine;

import java.util.Map;

/** Status of a LocalQueue (counts and usage of its own workloads). */
public record LocalQueueStatus(String namespace, String name, String clusterQueue, int pendingWorkloads,
                               int reservingWorkloads, int admittedWorkloads,
                               Map<FlavorResource, Long> flavorsReservation, Map<FlavorResource, Long> flavorUsage,
                               boolean active, String reason, String message) {
}
