package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Spec of a Workload: the pod sets a job needs and where it queues. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadSpec extends WorkloadSpecFields {

    @JsonPropertyDescription("WorkloadPriorityClass or PriorityClass the priority comes from.")
    private PriorityClassRef priorityClassRef;

    public PriorityClassRef getPriorityClassRef() {
        return priorityClassRef;
    }

    public void setPriorityClassRef(PriorityClassRef priorityClassRef) {
        this.priorityClassRef = priorityClassRef;
    }
}
