package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One layer of slices of a pod set: a topology level and how many pods each slice of it holds. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodsetSliceRequiredTopologyConstraint {

    @JsonPropertyDescription("Topology level (node label) each slice of this layer shares.")
    @Required
    @Size(min = 1, max = 63)
    private String topology;

    @JsonPropertyDescription("Pods per slice of this layer.")
    @Required
    @Min(1)
    private Integer size;

    public PodsetSliceRequiredTopologyConstraint() {
    }

    public PodsetSliceRequiredTopologyConstraint(String topology, Integer size) {
        this.topology = topology;
        this.size = size;
    }

    public String getTopology() {
        return topology;
    }

    public void setTopology(String topology) {
        this.topology = topology;
    }

    public Integer getSize() {
        return size;
    }

    public void setSize(Integer size) {
        this.size = size;
    }
}
