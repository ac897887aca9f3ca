package dev.sluice.api.v1beta2;

/** Where a kubeconfig is read from. */
public enum LocationType {
    Secret, Path
}
