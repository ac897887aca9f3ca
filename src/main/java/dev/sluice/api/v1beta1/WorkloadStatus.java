package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.RequeueState;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** Observed state of a v1beta1 Workload; status.admission is the record of admission. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadStatus {

    @JsonPropertyDescription("QuotaReserved, Admitted, Evicted, Preempted, Requeued, Finished.")
    private List<Condition> conditions;

    @JsonPropertyDescription("Set while quota is reserved.")
    private Admission admission;

    @JsonPropertyDescription("Requeue bookkeeping after evictions.")
    private RequeueState requeueState;

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public Admission getAdmission() {
        return admission;
    }

    public void setAdmission(Admission admission) {
        this.admission = admission;
    }

    public RequeueState getRequeueState() {
        return requeueState;
    }

    public void setRequeueState(RequeueState requeueState) {
        this.requeueState = requeueState;
    }
}
