package dev.sluice.api.v1beta2;

/** What to do when a flavor fits only by preempting (v1beta1's Preempt is MayStopSearch). */
public enum WhenCanPreempt {
    MayStopSearch, TryNextFlavor
}
