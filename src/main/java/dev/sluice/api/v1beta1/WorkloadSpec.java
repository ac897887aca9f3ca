package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.WorkloadSpecFields;

/** Spec of a Workload: the pod sets a job needs and where it queues. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadSpec extends WorkloadSpecFields {

    @JsonPropertyDescription("PriorityClass or WorkloadPriorityClass the priority comes from.")
    private String priorityClassName;

    @JsonPropertyDescription("kueue.x-k8s.io/workloadpriorityclass, scheduling.k8s.io/priorityclass or empty.")
    private String priorityClassSource;

    public String getPriorityClassName() {
        return priorityClassName;
    }

    public void setPriorityClassName(String priorityClassName) {
        this.priorityClassName = priorityClassName;
    }

    public String getPriorityClassSource() {
        return priorityClassSource;
    }

    public void setPriorityClassSource(String priorityClassSource) {
        this.priorityClassSource = priorityClassSource;
    }
}
