package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.FlavorFungibilityPreference;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;

/** When to try the next flavor instead of borrowing or preempting; Kueue's CEL rule on preference comes with it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = dev.sluice.api.v1beta2.FlavorFungibility.PREFERENCE_RULE,
        message = dev.sluice.api.v1beta2.FlavorFungibility.PREFERENCE_MESSAGE)
public class FlavorFungibility {

    @JsonPropertyDescription("MayStopSearch (default), TryNextFlavor, or Borrow (deprecated: MayStopSearch's older name).")
    @Default("MayStopSearch")
    private WhenCanBorrow whenCanBorrow;

    @JsonPropertyDescription("MayStopSearch, TryNextFlavor (default), or Preempt (deprecated: MayStopSearch's older"
            + " name).")
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
