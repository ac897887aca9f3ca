package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;

/** When to try the next flavor instead of borrowing or preempting; Kueue's CEL rule on preference comes with it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = FlavorFungibility.PREFERENCE_RULE, message = FlavorFungibility.PREFERENCE_MESSAGE)
public class FlavorFungibility {

    /** Kueue's CEL rule on preference, the same in v1beta1. */
    public static final String PREFERENCE_RULE = "!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor'"
            + " && self.whenCanPreempt == 'TryNextFlavor')";
    public static final String PREFERENCE_MESSAGE = "preference can only be set when both whenCanBorrow and whenCanPreempt"
            + " are TryNextFlavor";

    @JsonPropertyDescription("MayStopSearch (default) or TryNextFlavor.")
    @Default("MayStopSearch")
    private WhenCanBorrow whenCanBorrow;

    @JsonPropertyDescription("MayStopSearch or TryNextFlavor (default).")
    @Default("TryNextFlavor")
    private WhenCanPreempt whenCanPreempt;

    @JsonPropertyDescription("BorrowingOverPreemption (unset: the same) or PreemptionOverBorrowing: what wins when every"
            + " candidate flavor needs borrowing, preemption or both; only with whenCanBorrow and whenCanPreempt both"
            + " TryNextFlavor.")
    private FlavorFungibilityPreference preference;

    public WhenCanBorrow getWhenCanBorrow() {
        return whenCanBorrow;
    }

    public void setWhenCanBorrow(WhenCanBorrow whenCanBorrow) {
        this.whenCanBorrow = whenCanBorrow;
    }

    public WhenCanPreempt getWhenCanPreempt() {
        return whenCanPreempt;
    }

    public void setWhenCanPreempt(WhenCanPreempt whenCanPreempt) {
        this.whenCanPreempt = whenCanPreempt;
    }

    public FlavorFungibilityPreference getPreference() {
        return preference;
    }

    public void setPreference(FlavorFungibilityPreference preference) {
        this.preference = preference;
    }
}
