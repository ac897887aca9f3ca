package dev.sluice.engine;

/** A ClusterQueue's preemption policies; null fields take Kueue's defaults. */
public record PreemptionSpec(ReclaimWithinCohort reclaimWithinCohort, BorrowWithinCohortPolicy borrowPolicy,
                             Integer maxPriorityThreshold, WithinClusterQueue withinClusterQueue) {
    public PreemptionSpec {
        reclaimWithinCohort = reclaimWithinCohort == null ? ReclaimWithinCohort.Never : reclaimWithinCohort;
        borrowPolicy = borrowPolicy == null ? BorrowWithinCohortPolicy.Never : borrowPolicy;
        withinClusterQueue = withinClusterQueue == null ? WithinClusterQueue.Never : withinClusterQueue;
    }

    public static PreemptionSpec defaults() {
        return new PreemptionSpec(ReclaimWithinCohort.Never, BorrowWithinCohortPolicy.Never, null, WithinClusterQueue.Never);
    }
}
