package dev.sluice.engine;

/** Whether a workload that must borrow may preempt in the cohort. */
public enum BorrowWithinCohortPolicy {
    Never, LowerPriority
}
