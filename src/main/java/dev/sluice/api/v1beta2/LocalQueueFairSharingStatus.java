package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A LocalQueue's status.fairSharing: its admission fair sharing usage. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueFairSharingStatus {

    @JsonPropertyDescription("Dominant resource share above nominal quota, divided by the weight (x1000).")
    private Long weightedShare;

    @JsonPropertyDescription("The LocalQueue's usage under admission fair sharing.")
    private AdmissionFairSharingStatus admissionFairSharingStatus;

    public Long getWeightedShare() {
        return weightedShare;
    }

    public void setWeightedShare(Long weightedShare) {
        this.weightedShare = weightedShare;
    }

    public AdmissionFairSharingStatus getAdmissionFairSharingStatus() {
        return admissionFairSharingStatus;
    }

    public void setAdmissionFairSharingStatus(AdmissionFairSharingStatus admissionFairSharingStatus) {
        this.admissionFairSharingStatus = admissionFairSharingStatus;
    }
}
