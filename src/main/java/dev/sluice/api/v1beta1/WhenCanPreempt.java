package dev.sluice.api.v1beta1;

/** What to do when a flavor fits only by preempting. */
public enum WhenCanPreempt {
    /** Preempt is v1beta1's older name for MayStopSearch; Kueue's v1beta1 accepts both. */
    Preempt, MayStopSearch, TryNextFlavor
}
