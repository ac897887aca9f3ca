package dev.sluice.api.v1beta2;

/** Whether a pod set's topology assignment still waits (Pending) or was made (Ready) after an admission check. */
public enum DelayedTopologyRequestState {
    Pending, Ready
}
