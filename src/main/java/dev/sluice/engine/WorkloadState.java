package dev.sluice.engine;

/**
 * A workload as the engine holds it. assignment is set while ADMITTED or EVICTING; message is the latest
 * pending message or the admission/eviction message; admittedAtMillis is null unless admitted; unadmittedReason
 * is Kueue's granular reason of the latest pending message while PENDING or INADMISSIBLE, else null.
 */
public record WorkloadState(WorkloadSpec spec, WorkloadPhase phase, String clusterQueue, Assignment assignment,
                            String message, Long admittedAtMillis, UnadmittedReason unadmittedReason) {
    public WorkloadState(WorkloadSpec spec, WorkloadPhase phase, String clusterQueue, Assignment assignment,
                         String message, Long admittedAtMillis) {
        this(spec, phase, clusterQueue, assignment, message, admittedAtMillis, null);
    }
}
