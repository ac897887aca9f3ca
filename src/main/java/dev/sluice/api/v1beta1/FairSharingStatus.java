package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The weighted share a fair-sharing node currently holds. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FairSharingStatus {

    @JsonPropertyDescription("Dominant resource share above nominal quota, divided by the weight (x1000).")
    private Long weightedShare;

    public Long getWeightedShare() {
        return weightedShare;
    }

    public void setWeightedShare(Long weightedShare) {
        this.weightedShare = weightedShare;
    }
}
