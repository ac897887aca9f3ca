package dev.sluice.engine;

/**
 * Decision: the caller must stop the workload and then call {@link Engine#evictionDone}.
 * preemptionReason is null unless reason is Preempted; preemptor may be null.
 */
public record Eviction(WorkloadKey workload, EvictionReason reason, PreemptionReason preemptionReason,
                       WorkloadKey preemptor, String message) {
}
