package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** One domain of a v1beta1 topology assignment: its node selector values per level and its pod count. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologyDomainAssignment {

    @JsonPropertyDescription("Node selector values of the domain, one per level, highest first.")
    @Required
    @Size(min = 1, max = 16)
    private List<String> values;

    @JsonPropertyDescription("Pods to schedule in the domain.")
    @Required
    @Min(1)
    private Integer count;

    public List<String> getValues() {
        return values;
    }

    public void setValues(List<String> values) {
        this.values = values;
    }

    public Integer getCount() {
        return count;
    }

    public void setCount(Integer count) {
        this.count = count;
    }
}
