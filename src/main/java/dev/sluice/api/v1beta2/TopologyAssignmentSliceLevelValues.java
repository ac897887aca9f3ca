package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** The values of a slice's domains at one level: one for all (universal) or one per domain (individual). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.universal) != has(self.individual)",
        message = "exactly one of the fields in [universal individual] must be set")
public class TopologyAssignmentSliceLevelValues {

    @JsonPropertyDescription("The value of every domain of the slice at this level.")
    @Size(max = 63)
    private String universal;

    @JsonPropertyDescription("A value per domain: prefix + root + suffix.")
    private TopologyAssignmentSliceLevelIndividualValues individual;

    public String getUniversal() {
        return universal;
    }

    public void setUniversal(String universal) {
        this.universal = universal;
    }

    public TopologyAssignmentSliceLevelIndividualValues getIndividual() {
        return individual;
    }

    public void setIndividual(TopologyAssignmentSliceLevelIndividualValues individual) {
        this.individual = individual;
    }
}
