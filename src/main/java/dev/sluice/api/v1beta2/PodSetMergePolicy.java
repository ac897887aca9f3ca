package dev.sluice.api.v1beta2;

/** When pod sets are merged into one pod template of a ProvisioningRequest. */
public enum PodSetMergePolicy {
    IdenticalPodTemplates, IdenticalWorkloadSchedulingRequirements
}
