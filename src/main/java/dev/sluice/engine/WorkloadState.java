package dev.sluice.engine;

/**
 * A workload as the engine holds it. assignment is set while ADMITTED or EVICTING; message is the latest
 * pending message or the admission/eviction message; admittedAtMillis is null unless admitted.
 */
public record WorkloadState(WorkloadSpec spec, WorkloadPhase phase, String clusterQueue, Assignment assignment,
                            String message, Long admittedAtMillis) {
}
