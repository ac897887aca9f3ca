package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** One admission check of a v1beta1 ClusterQueue, and the flavors it applies to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionCheckStrategyRule {

    @JsonPropertyDescription("Name of the AdmissionCheck.")
    @Required
    @Size(max = 316)
    private String name;

    @JsonPropertyDescription("ResourceFlavors whose admissions need this check; empty means all.")
    private List<String> onFlavors;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<String> getOnFlavors() {
        return onFlavors;
    }

    public void setOnFlavors(List<String> onFlavors) {
        this.onFlavors = onFlavors;
    }
}
