package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** Observed state of a ClusterQueue. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterQueueStatus {

    @JsonPropertyDescription("Quota reserved by workloads, per flavor and resource.")
    private List<FlavorUsage> flavorsReservation;

    @JsonPropertyDescription("Quota used by admitted workloads, per flavor and resource.")
    private List<FlavorUsage> flavorsUsage;

    @JsonPropertyDescription("Workloads waiting for quota.")
    private Integer pendingWorkloads;

    @JsonPropertyDescription("Workloads holding a quota reservation.")
    private Integer reservingWorkloads;

    @JsonPropertyDescription("Admitted workloads that have not finished.")
    private Integer admittedWorkloads;

    @JsonPropertyDescription("Conditions; Active says whether the ClusterQueue can admit.")
    private List<Condition> conditions;

    @JsonPropertyDescription("Fair-sharing state of this ClusterQueue (written while fair sharing is on).")
    private FairSharingStatus fairSharing;

    public FairSharingStatus getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(FairSharingStatus fairSharing) {
        this.fairSharing = fairSharing;
    }

    public List<FlavorUsage> getFlavorsReservation() {
        return flavorsReservation;
    }

    public void setFlavorsReservation(List<FlavorUsage> flavorsReservation) {
        this.flavorsReservation = flavorsReservation;
    }

    public List<FlavorUsage> getFlavorsUsage() {
        return flavorsUsage;
    }

    public void setFlavorsUsage(List<FlavorUsage> flavorsUsage) {
        this.flavorsUsage = flavorsUsage;
    }

    public Integer getPendingWorkloads() {
        return pendingWorkloads;
    }

    public void setPendingWorkloads(Integer pendingWorkloads) {
        this.pendingWorkloads = pendingWorkloads;
    }

    public Integer getReservingWorkloads() {
        return reservingWorkloads;
    }

    public void setReservingWorkloads(Integer reservingWorkloads) {
        this.reservingWorkloads = reservingWorkloads;
    }

    public Integer getAdmittedWorkloads() {
        return admittedWorkloads;
    }

    public void setAdmittedWorkloads(Integer admittedWorkloads) {
        this.admittedWorkloads = admittedWorkloads;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
