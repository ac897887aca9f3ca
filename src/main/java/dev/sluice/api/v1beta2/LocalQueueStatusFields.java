package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What a LocalQueue's status says alike in v1beta1 and v1beta2 (one class for both CRD versions' schema); each
 * version's LocalQueueStatus adds its spelling of the usage per flavor.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class LocalQueueStatusFields {

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

    @JsonPropertyDescription("Admission fair sharing usage, while admission fair sharing is on.")
    private LocalQueueFairSharingStatus fairSharing;

    public LocalQueueFairSharingStatus getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(LocalQueueFairSharingStatus fairSharing) {
        this.fairSharing = fairSharing;
    }

}
