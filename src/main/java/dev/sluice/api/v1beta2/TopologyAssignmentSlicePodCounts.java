package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** Pods per domain of a slice: one count for all (universal) or one per domain (individual). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "[has(self.universal),has(self.individual)].filter(x,x==true).size() == 1",
        message = "exactly one of the fields in [universal individual] must be set")
public class TopologyAssignmentSlicePodCounts {

    @JsonPropertyDescription("Pods in every domain of the slice.")
    @Min(1)
    private Integer universal;

    @JsonPropertyDescription("Pods in each domain of the slice.")
    @Size(min = 1, max = 100000)
    private List<Integer> individual;

    public Integer getUniversal() {
        return universal;
    }

    public void setUniversal(Integer universal) {
        this.universal = universal;
    }

    public List<Integer> getIndividual() {
        return individual;
    }

    public void setIndividual(List<Integer> individual) {
        this.individual = individual;
    }
}
