package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A ClusterProfile of the cluster inventory API, by name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterProfileReference {

    @JsonPropertyDescription("Name of the ClusterProfile.")
    @Required
    @Size(min = 1, max = 256)
    private String name;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
