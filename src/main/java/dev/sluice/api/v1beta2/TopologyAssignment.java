package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * Where a pod set's pods go: the levels (node label keys, highest first) and runs of domains as slices, each domain
 * named by one value per level and given a pod count (v1beta2's compact form of v1beta1's domains list).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.slices.all(x, size(x.valuesPerLevel) == size(self.levels))",
        message = "valuesPerLevel must have the same length as the number of levels in this TopologyAssignment")
public class TopologyAssignment {

    @JsonPropertyDescription("Node label keys of the assigned levels, highest first.")
    @Required
    @Size(min = 1, max = 16)
    private List<String> levels;

    @JsonPropertyDescription("Slices of domains; the assignment is their union.")
    @Required
    @Size(max = 1000)
    private List<TopologyAssignmentSlice> slices;

    public List<String> getLevels() {
        return levels;
    }

    public void setLevels(List<String> levels) {
        this.levels = levels;
    }

    public List<TopologyAssignmentSlice> getSlices() {
        return slices;
    }

    public void setSlices(List<TopologyAssignmentSlice> slices) {
        this.slices = slices;
    }
}
