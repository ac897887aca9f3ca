package dev.sluice.api.v1beta2;

/** The state of an admission check of a Workload. */
public enum CheckState {
    Pending, Ready, Retry, Rejected
}
