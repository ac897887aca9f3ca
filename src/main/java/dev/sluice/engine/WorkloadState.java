package dev.sluice.engine;

import java.util.Map;

/**
 * A workload as the engine holds it. assignment is set while ADMITTED or EVICTING (quota reserved); message is the
 * latest pending message or the admission/eviction message; admittedAtMillis is null unless quota is reserved;
 * unadmittedReason is Kueue's granular reason of the latest pending message while PENDING or INADMISSIBLE, else
 * null; admissionChecks are the states of the checks its reservation needs (empty when none, or not reserved).
 */
public record WorkloadState(WorkloadSpec spec, WorkloadPhase phase, String clusterQueue, Assignment assignment,
                            String message, Long admittedAtMillis, UnadmittedReason unadmittedReason,
                            Map<String, CheckState> admissionChecks) {
    public WorkloadState {
        admissionChecks = admissionChecks == null ? Map.of() : Map.copyOf(admissionChecks);
    }

    public WorkloadState(WorkloadSpec spec, WorkloadPhase phase, String clusterQueue, Assignment assignment,
                         String message, Long admittedAtMillis, UnadmittedReason unadmittedReason) {
        this(spec, phase, clusterQueue, assignment, message, admittedAtMillis, unadmittedReason, Map.of());
    }

    public WorkloadState(WorkloadSpec spec, WorkloadPhase phase, String clusterQueue, Assignment assignment,
                         String message, Long admittedAtMillis) {
        this(spec, phase, clusterQueue, assignment, message, admittedAtMillis, null, Map.of());
    }

    /** Kueue's Admitted: quota reserved, not being evicted, and every admission check Ready. */
    public boolean admitted() {
        return phase == WorkloadPhase.ADMITTED && allChecksReady();
    }

    /** Quota reserved and waiting for at least one admission check. */
    public boolean waitingForChecks() {
        return phase == WorkloadPhase.ADMITTED && !allChecksReady();
    }

    private boolean allChecksReady() {
        for (CheckState c : admissionChecks.values()) {
            if (c != CheckState.Ready) {
                return false;
            }
        }
        return true;
    }
}
