package dev.sluice.engine;

/** Flavor fungibility: what to do when a flavor fits only by preempting. */
public enum WhenCanPreempt {
    Preempt, TryNextFlavor
}
