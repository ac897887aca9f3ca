package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Quotas of the covered resources in one flavor. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FlavorQuotas {

    @JsonPropertyDescription("Name of the ResourceFlavor.")
    @Required
    private String name;

    @JsonPropertyDescription("One entry per covered resource of the resource group, in the same order.")
    @Required
    @Size(min = 1, max = 64)
    private List<ResourceQuota> resources;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<ResourceQuota> getResources() {
        return resources;
    }

    public void setResources(List<ResourceQuota> resources) {
        this.resources = resources;
    }
}
