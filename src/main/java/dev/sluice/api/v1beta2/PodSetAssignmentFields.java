package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * What an admission says alike in v1beta1 and v1beta2 about one pod set (flavors, usage, count); each version's
 * PodSetAssignment adds its form of the topology assignment.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class PodSetAssignmentFields {

    @JsonPropertyDescription("Pod set name.")
    @Required
    private String name;

    @JsonPropertyDescription("Flavor per resource.")
    private Map<String, String> flavors;

    @JsonPropertyDescription("Resources the whole pod set uses.")
    private Map<String, Quantity> resourceUsage;

    @JsonPropertyDescription("Number of pods admitted (lower than the pod set count under partial admission).")
    private Integer count;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Map<String, String> getFlavors() {
        return flavors;
    }

    public void setFlavors(Map<String, String> flavors) {
        this.flavors = flavors;
    }

    public Map<String, Quantity> getResourceUsage() {
        return resourceUsage;
    }

    public void setResourceUsage(Map<String, Quantity> resourceUsage) {
        this.resourceUsage = resourceUsage;
    }

    public Integer getCount() {
        return count;
    }

    public void setCount(Integer count) {
        this.count = count;
    }
}
