package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** Whether a borrowing workload may preempt in the cohort. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BorrowWithinCohort {

    @JsonPropertyDescription("Never (default) or LowerPriority.")
    @Default("Never")
    private BorrowWithinCohortPolicy policy;

    @JsonPropertyDescription("Only workloads at or below this priority may be preempted while borrowing.")
    private Integer maxPriorityThreshold;

    public BorrowWithinCohortPolicy getPolicy() {
        return policy;
    }

    public void setPolicy(BorrowWithinCohortPolicy policy) {
        this.policy = policy;
    }

    public Integer getMaxPriorityThreshold() {
        return maxPriorityThreshold;
    }

    public void setMaxPriorityThreshold(Integer maxPriorityThreshold) {
        this.maxPriorityThreshold = maxPriorityThreshold;
    }
}
