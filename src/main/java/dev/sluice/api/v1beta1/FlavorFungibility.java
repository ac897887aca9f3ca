package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** When to try the next flavor instead of borrowing or preempting. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FlavorFungibility {

    @JsonPropertyDescription("Borrow (default; MayStopSearch is its newer name) or TryNextFlavor.")
    @Default("Borrow")
    private WhenCanBorrow whenCanBorrow;

    @JsonPropertyDescription("Preempt (MayStopSearch is its newer name) or TryNextFlavor (default).")
    @Default("TryNextFlavor")
    private WhenCanPreempt whenCanPreempt;

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
}
