package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** Observed state of a MultiKueueCluster: Active says whether it is connected. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MultiKueueClusterStatus {

    @JsonPropertyDescription("Latest observations; Active says whether the worker cluster is connected.")
    @Size(max = 16)
    private List<Condition> conditions;

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
