package dev.sluice.engine;

/** Whether to borrow or preempt in a flavor, or try the next flavor first. */
public record FlavorFungibility(WhenCanBorrow whenCanBorrow, WhenCanPreempt whenCanPreempt) {
    public FlavorFungibility {
        whenCanBorrow = whenCanBorrow == null ? WhenCanBorrow.Borrow : whenCanBorrow;
        whenCanPreempt = whenCanPreempt == null ? WhenCanPreempt.TryNextFlavor : whenCanPreempt;
    }

    public static FlavorFungibility defaults() {
        return new FlavorFungibility(WhenCanBorrow.Borrow, WhenCanPreempt.TryNextFlavor);
    }
}
