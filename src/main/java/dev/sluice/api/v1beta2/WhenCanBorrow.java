package dev.sluice.api.v1beta2;

/** What to do when a flavor fits only by borrowing (v1beta1's Borrow is MayStopSearch). */
public enum WhenCanBorrow {
    MayStopSearch, TryNextFlavor
}
