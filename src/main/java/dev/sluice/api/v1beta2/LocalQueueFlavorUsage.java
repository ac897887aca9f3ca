package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Usage of the resources of one flavor by a LocalQueue. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueFlavorUsage {

    @JsonPropertyDescription("Flavor name.")
    private String name;

    @JsonPropertyDescription("Usage per resource.")
    private List<LocalQueueResourceUsage> resources;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<LocalQueueResourceUsage> getResources() {
        return resources;
    }

    public void setResources(List<LocalQueueResourceUsage> resources) {
        this.resources = resources;
    }
}
