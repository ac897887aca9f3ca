package dev.sluice.engine;

import java.util.List;

/**
 * Decision: quota is reserved for the workload. admissionChecks are the checks its admission needs (sorted, each
 * Pending now): with none it is admitted and the caller starts it; otherwise it starts once every one is Ready.
 */
public record Admission(WorkloadKey workload, Assignment assignment, String message, List<String> admissionChecks) {
    public Admission {
        admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
    }

    /** An admission that needs no checks. */
    public Admission(WorkloadKey workload, Assignment assignment, String message) {
        this(workload, assignment, message, List.of());
    }
}
