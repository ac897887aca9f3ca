package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Observed state of a Cohort. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CohortStatus {

    @JsonPropertyDescription("Fair-sharing state of this Cohort.")
    private FairSharingStatus fairSharing;

    public FairSharingStatus getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(FairSharingStatus fairSharing) {
        this.fairSharing = fairSharing;
    }
}
