package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** Which workloads a pending workload may preempt. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterQueuePreemption {

    @JsonPropertyDescription("Preemption of workloads of other ClusterQueues of the cohort that borrow: Never (default), LowerPriority or Any.")
    @Default("Never")
    private ReclaimWithinCohort reclaimWithinCohort;

    @JsonPropertyDescription("Preemption in the cohort while the preemptor borrows.")
    private BorrowWithinCohort borrowWithinCohort;

    @JsonPropertyDescription("Preemption in the own ClusterQueue: Never (default), LowerPriority or LowerOrNewerEqualPriority.")
    @Default("Never")
    private WithinClusterQueue withinClusterQueue;

    public ReclaimWithinCohort getReclaimWithinCohort() {
        return reclaimWithinCohort;
    }

    public void setReclaimWithinCohort(ReclaimWithinCohort reclaimWithinCohort) {
        this.reclaimWithinCohort = reclaimWithinCohort;
    }

    public BorrowWithinCohort getBorrowWithinCohort() {
        return borrowWithinCohort;
    }

    public void setBorrowWithinCohort(BorrowWithinCohort borrowWithinCohort) {
        this.borrowWithinCohort = borrowWithinCohort;
    }

    public WithinClusterQueue getWithinClusterQueue() {
        return withinClusterQueue;
    }

    public void setWithinClusterQueue(WithinClusterQueue withinClusterQueue) {
        this.withinClusterQueue = withinClusterQueue;
    }
}
