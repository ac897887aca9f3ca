package dev.sluice.engine.tas;

/**
 * The outcome for one pod set (Kueue's tasPodSetAssignmentResult): an assignment, or the reason it does not fit
 * (then the assignment is null).
 */
public record PlacementResult(TopologyAssignment assignment, String failureReason) {
    public boolean fits() {
        return failureReason == null || failureReason.isEmpty();
    }
}
