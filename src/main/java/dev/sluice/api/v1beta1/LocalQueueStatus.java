package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.LocalQueueFairSharingStatus;
import dev.sluice.api.v1beta2.LocalQueueFlavorUsage;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** Observed state of a LocalQueue. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueStatus {

    @JsonPropertyDescription("Workloads waiting for quota.")
    private Integer pendingWorkloads;

    @JsonPropertyDescription("Workloads holding a quota reservation.")
    private Integer reservingWorkloads;

    @JsonPropertyDescription("Admitted workloads that have not finished.")
    private Integer admittedWorkloads;

    @JsonPropertyDescription("Conditions; Active says whether the LocalQueue can submit to its ClusterQueue.")
    private List<Condition> conditions;

    @JsonPropertyDescription("Quota reserved, per flavor and resource.")
    private List<LocalQueueFlavorUsage> flavorsReservation;

    @JsonPropertyDescription("Quota used by admitted workloads, per flavor and resource.")
    private List<LocalQueueFlavorUsage> flavorUsage;

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

    public List<LocalQueueFlavorUsage> getFlavorsReservation() {
        return flavorsReservation;
    }

    public void setFlavorsReservation(List<LocalQueueFlavorUsage> flavorsReservation) {
        this.flavorsReservation = flavorsReservation;
    }

    public List<LocalQueueFlavorUsage> getFlavorUsage() {
        return flavorUsage;
    }

    public void setFlavorUsage(List<LocalQueueFlavorUsage> flavorUsage) {
        this.flavorUsage = flavorUsage;
    }

    @JsonPropertyDescription("Admission fair sharing usage, while admission fair sharing is on.")
    private LocalQueueFairSharingStatus fairSharing;

    public LocalQueueFairSharingStatus getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(LocalQueueFairSharingStatus fairSharing) {
        this.fairSharing = fairSharing;
    }
}
