package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.PodSet;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Spec of a Workload: the pod sets a job needs and where it queues. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadSpec {

    @JsonPropertyDescription("Pod sets of the workload.")
    @Required
    @Size(min = 1, max = 8)
    private List<PodSet> podSets;

    @JsonPropertyDescription("LocalQueue in the same namespace.")
    private String queueName;

    @JsonPropertyDescription("PriorityClass or WorkloadPriorityClass the priority comes from.")
    private String priorityClassName;

    @JsonPropertyDescription("Priority; higher is admitted first.")
    private Integer priority;

    @JsonPropertyDescription("kueue.x-k8s.io/workloadpriorityclass, scheduling.k8s.io/priorityclass or empty.")
    private String priorityClassSource;

    @JsonPropertyDescription("false deactivates (and evicts) the workload.")
    @Default("true")
    private Boolean active;

    public List<PodSet> getPodSets() {
        return podSets;
    }

    public void setPodSets(List<PodSet> podSets) {
        this.podSets = podSets;
    }

    public String getQueueName() {
        return queueName;
    }

    public void setQueueName(String queueName) {
        this.queueName = queueName;
    }

    public String getPriorityClassName() {
        return priorityClassName;
    }

    public void setPriorityClassName(String priorityClassName) {
        this.priorityClassName = priorityClassName;
    }

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public String getPriorityClassSource() {
        return priorityClassSource;
    }

    public void setPriorityClassSource(String priorityClassSource) {
        this.priorityClassSource = priorityClassSource;
    }

    public Boolean getActive() {
        return active;
    }

    public void setActive(Boolean active) {
        this.active = active;
    }
}
