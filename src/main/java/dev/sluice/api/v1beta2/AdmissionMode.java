package dev.sluice.api.v1beta2;

/** Kueue's admissionScope.admissionMode: whether a ClusterQueue orders its LocalQueues by their recent usage. */
public enum AdmissionMode {
    UsageBasedAdmissionFairSharing,
    NoAdmissionFairSharing
}
