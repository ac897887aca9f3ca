package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What a Workload's status says alike in v1beta1 and v1beta2 (one class for both CRD versions' schema); each
 * version's WorkloadStatus adds its admission, whose pod-set assignments spell the topology assignment per version.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class WorkloadStatusFields {

    @JsonPropertyDescription("QuotaReserved, Admitted, Evicted, Preempted, Requeued, Finished.")
    private List<Condition> conditions;

    @JsonPropertyDescription("Requeue bookkeeping after evictions.")
    private RequeueState requeueState;

    @JsonPropertyDescription("The state of each admission check of the Workload's ClusterQueue (written by the checks' controllers).")
    @Size(max = 8)
    private List<AdmissionCheckState> admissionChecks;

    @JsonPropertyDescription("unhealthyNodes holds the failed nodes running at least one pod of this workload when "
            + "Topology-Aware Scheduling is used. This field should not be set by the users. It indicates Kueue's "
            + "scheduler is searching for replacements of the failed nodes. Requires enabling the "
            + "TASFailedNodeReplacement feature gate.")
    @Size(max = 8)
    private List<UnhealthyNode> unhealthyNodes;

    public List<UnhealthyNode> getUnhealthyNodes() {
        return unhealthyNodes;
    }

    public void setUnhealthyNodes(List<UnhealthyNode> unhealthyNodes) {
        this.unhealthyNodes = unhealthyNodes;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public RequeueState getRequeueState() {
        return requeueState;
    }

    public void setRequeueState(RequeueState requeueState) {
        this.requeueState = requeueState;
    }

    public List<AdmissionCheckState> getAdmissionChecks() {
        return admissionChecks;
    }

    public void setAdmissionChecks(List<AdmissionCheckState> admissionChecks) {
        this.admissionChecks = admissionChecks;
    }
}
