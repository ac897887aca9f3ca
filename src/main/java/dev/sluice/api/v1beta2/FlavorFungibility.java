package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** When to try the next flavor instead of borrowing or preempting. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FlavorFungibility {

    @JsonPropertyDescription("MayStopSearch (default) or TryNextFlavor.")
    @Default("MayStopSearch")
    private WhenCanBorrow whenCanBorrow;

    @JsonPropertyDescription("MayStopSearch or TryNextFlavor (default).")
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
