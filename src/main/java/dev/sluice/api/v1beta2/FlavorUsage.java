package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Usage of the resources of one flavor. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FlavorUsage {

    @JsonPropertyDescription("Flavor name.")
    private String name;

    @JsonPropertyDescription("Usage per resource.")
    private List<ResourceUsage> resources;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<ResourceUsage> getResources() {
        return resources;
    }

    public void setResources(List<ResourceUsage> resources) {
        this.resources = resources;
    }
}
