package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * What a Workload's spec says alike in v1beta1 and v1beta2 (one class for both CRD versions' schema); each
 * version's WorkloadSpec adds how it names the priority class.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class WorkloadSpecFields {

    @JsonPropertyDescription("Pod sets of the workload.")
    @Required
    @Size(min = 1, max = 8)
    private List<PodSet> podSets;

    @JsonPropertyDescription("LocalQueue in the same namespace.")
    private String queueName;

    @JsonPropertyDescription("Priority; higher is admitted first.")
    private Integer priority;

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

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public Boolean getActive() {
        return active;
    }

    public void setActive(Boolean active) {
        this.active = active;
    }

}
