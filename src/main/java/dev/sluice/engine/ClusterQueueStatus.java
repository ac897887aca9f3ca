package dev.sluice.engine;

import java.util.Map;

/**
 * Status of a ClusterQueue. pendingWorkloads counts all waiting (inadmissibleWorkloads of them are parked);
 * reserving and admitted are equal (no admission checks). active false comes with Kueue's reason and message.
 */
public record ClusterQueueStatus(String name, String cohort, int pendingWorkloads, int inadmissibleWorkloads,
                                 int reservingWorkloads, int admittedWorkloads,
                                 Map<FlavorResource, Long> flavorsReservation, Map<FlavorResource, Long> flavorsUsage,
                                 boolean active, String reason, String message) {
}
