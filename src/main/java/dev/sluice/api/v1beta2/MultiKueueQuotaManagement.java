package dev.sluice.api.v1beta2;

/** Who manages the worker clusters' quota. */
public enum MultiKueueQuotaManagement {
    Manual, Automated
}
