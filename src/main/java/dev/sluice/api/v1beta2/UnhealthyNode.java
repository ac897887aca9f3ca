package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A failed node running pods of a Workload placed by topology (Kueue's UnhealthyNode). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UnhealthyNode {

    @JsonPropertyDescription("name is the name of the unhealthy node.")
    @Required
    @Size(max = 63)
    private String name;

    public UnhealthyNode() {
    }

    public UnhealthyNode(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UnhealthyNode u && java.util.Objects.equals(name, u.name);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(name);
    }
}
