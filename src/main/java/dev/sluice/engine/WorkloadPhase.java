package dev.sluice.engine;

/** Where a workload stands in the engine. */
public enum WorkloadPhase {
    PENDING, INADMISSIBLE, ADMITTED, EVICTING
}
