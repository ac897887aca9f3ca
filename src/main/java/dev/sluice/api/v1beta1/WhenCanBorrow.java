package dev.sluice.api.v1beta1;

/** What to do when a flavor fits only by borrowing. */
public enum WhenCanBorrow {
    /** Borrow is v1beta1's older name for MayStopSearch; Kueue's v1beta1 accepts both. */
    Borrow, MayStopSearch, TryNextFlavor
}
