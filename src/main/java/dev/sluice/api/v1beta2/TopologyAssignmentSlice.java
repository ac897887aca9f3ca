package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** A run of domainCount domains: their values per level and their pod counts. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.podCounts.individual) || size(self.podCounts.individual) == self.domainCount",
        message = "podCounts.individual must have length equal to domainCount")
@ValidationRule(value = "self.valuesPerLevel.all(x, !has(x.individual) || size(x.individual.roots) == self.domainCount)",
        message = "valuesPerLevel.individual, if set, must have roots of length equal to domainCount of this"
                + " TopologyAssignmentSlice")
public class TopologyAssignmentSlice {

    @JsonPropertyDescription("Number of domains of this slice.")
    @Required
    @Min(1)
    private Integer domainCount;

    @JsonPropertyDescription("One entry per level of the assignment: the domains' values at that level.")
    @Required
    @Size(min = 1, max = 16)
    private List<TopologyAssignmentSliceLevelValues> valuesPerLevel;

    @JsonPropertyDescription("Pods per domain.")
    @Required
    private TopologyAssignmentSlicePodCounts podCounts;

    public Integer getDomainCount() {
        return domainCount;
    }

    public void setDomainCount(Integer domainCount) {
        this.domainCount = domainCount;
    }

    public List<TopologyAssignmentSliceLevelValues> getValuesPerLevel() {
        return valuesPerLevel;
    }

    public void setValuesPerLevel(List<TopologyAssignmentSliceLevelValues> valuesPerLevel) {
        this.valuesPerLevel = valuesPerLevel;
    }

    public TopologyAssignmentSlicePodCounts getPodCounts() {
        return podCounts;
    }

    public void setPodCounts(TopologyAssignmentSlicePodCounts podCounts) {
        this.podCounts = podCounts;
    }
}
