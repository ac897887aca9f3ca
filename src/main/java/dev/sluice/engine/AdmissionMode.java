package dev.sluice.engine;

/**
 * Kueue's ClusterQueue spec.admissionScope.admissionMode: with UsageBasedAdmissionFairSharing (and admission fair
 * sharing on in the engine) the queue's heads are ordered by their LocalQueue's decayed, weighted usage.
 */
public enum AdmissionMode {
    NoAdmissionFairSharing,
    UsageBasedAdmissionFairSharing
}
