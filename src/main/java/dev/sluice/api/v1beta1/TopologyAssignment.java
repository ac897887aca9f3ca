package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** v1beta1's topology assignment: the levels and every domain with its values per level and pod count. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologyAssignment {

    @JsonPropertyDescription("Node label keys of the assigned levels, highest first.")
    @Required
    @Size(min = 1, max = 16)
    private List<String> levels;

    @JsonPropertyDescription("The domains at the lowest level and the pods of each.")
    @Required
    private List<TopologyDomainAssignment> domains;

    public List<String> getLevels() {
        return levels;
    }

    public void setLevels(List<String> levels) {
        this.levels = levels;
    }

    public List<TopologyDomainAssignment> getDomains() {
        return domains;
    }

    public void setDomains(List<TopologyDomainAssignment> domains) {
        this.domains = domains;
    }
}
