package dev.sluice.api.v1beta1;

/** What to do when a flavor fits only by preempting. */
public enum WhenCanPreempt {
    Preempt, TryNextFlavor
}
