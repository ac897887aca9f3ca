package dev.sluice.engine;

/** Decision: quota is reserved for the workload; the caller starts it. */
public record Admission(WorkloadKey workload, Assignment assignment, String message) {
}
