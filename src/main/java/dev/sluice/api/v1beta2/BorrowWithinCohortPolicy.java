package dev.sluice.api.v1beta2;

/** Whether a workload that must borrow may preempt in the cohort. */
public enum BorrowWithinCohortPolicy {
    Never, LowerPriority
}
