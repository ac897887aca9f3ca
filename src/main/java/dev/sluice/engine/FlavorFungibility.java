package dev.sluice.engine;

/**
 * Whether to borrow or preempt in a flavor, or try the next flavor first; and, among flavors that all need borrowing
 * or preemption, which wins (null: BorrowingOverPreemption, Kueue's behaviour when unset).
 */
public record FlavorFungibility(WhenCanBorrow whenCanBorrow, WhenCanPreempt whenCanPreempt,
                                FlavorFungibilityPreference preference) {
    public FlavorFungibility {
        whenCanBorrow = whenCanBorrow == null ? WhenCanBorrow.Borrow : whenCanBorrow;
        whenCanPreempt = whenCanPreempt == null ? WhenCanPreempt.TryNextFlavor : whenCanPreempt;
        preference = preference == null ? FlavorFungibilityPreference.BorrowingOverPreemption : preference;
    }

    public FlavorFungibility(WhenCanBorrow whenCanBorrow, WhenCanPreempt whenCanPreempt) {
        this(whenCanBorrow, whenCanPreempt, null);
    }

    public static FlavorFungibility defaults() {
        return new FlavorFungibility(WhenCanBorrow.Borrow, WhenCanPreempt.TryNextFlavor);
    }
}
