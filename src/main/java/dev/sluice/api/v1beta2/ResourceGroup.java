package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Resources that are assigned flavors together, and the flavors to try in order. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceGroup {

    @JsonPropertyDescription("Resources covered by this group; each appears in exactly one group.")
    @Required
    @Size(min = 1, max = 64)
    private List<String> coveredResources;

    @JsonPropertyDescription("Flavors to try, in order.")
    @Required
    @Size(min = 1, max = 16)
    private List<FlavorQuotas> flavors;

    public List<String> getCoveredResources() {
        return coveredResources;
    }

    public void setCoveredResources(List<String> coveredResources) {
        this.coveredResources = coveredResources;
    }

    public List<FlavorQuotas> getFlavors() {
        return flavors;
    }

    public void setFlavors(List<FlavorQuotas> flavors) {
        this.flavors = flavors;
    }
}
