package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/** A group of identical pods of a workload. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSet {

    @JsonPropertyDescription("Name of the pod set; main by default.")
    @Default("main")
    private String name;

    @JsonPropertyDescription("Pod template of the pods of this set.")
    @Required
    private PodTemplateSpec template;

    @JsonPropertyDescription("Number of pods.")
    @Default("1")
    @Min(0)
    private Integer count;

    @JsonPropertyDescription("Least number of pods the workload can run with (partial admission).")
    @Min(1)
    private Integer minCount;

    @JsonPropertyDescription("What the pod set asks of the topology (from its template's annotations).")
    private PodSetTopologyRequest topologyRequest;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public PodTemplateSpec getTemplate() {
        return template;
    }

    public void setTemplate(PodTemplateSpec template) {
        this.template = template;
    }

    public Integer getCount() {
        return count;
    }

    public void setCount(Integer count) {
        this.count = count;
    }

    public Integer getMinCount() {
        return minCount;
    }

    public void setMinCount(Integer minCount) {
        this.minCount = minCount;
    }

    public PodSetTopologyRequest getTopologyRequest() {
        return topologyRequest;
    }

    public void setTopologyRequest(PodSetTopologyRequest topologyRequest) {
        this.topologyRequest = topologyRequest;
    }
}
