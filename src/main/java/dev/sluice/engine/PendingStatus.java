package dev.sluice.engine;

/** Why a workload is still waiting, in words a person can act on. */
public record PendingStatus(WorkloadKey workload, PendingReason reason, String message) {
}
