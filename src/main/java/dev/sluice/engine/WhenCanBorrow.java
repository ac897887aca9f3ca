package dev.sluice.engine;

/** Flavor fungibility: what to do when a flavor fits only by borrowing. */
public enum WhenCanBorrow {
    Borrow, TryNextFlavor
}
