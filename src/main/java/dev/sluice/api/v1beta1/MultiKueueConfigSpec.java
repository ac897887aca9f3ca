package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Spec of a v1beta1 MultiKueueConfig: the worker clusters (v1beta1 has no quotaManagement). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MultiKueueConfigSpec {

    @JsonPropertyDescription("Names of the MultiKueueClusters.")
    @Required
    @Size(min = 1, max = 20)
    private List<String> clusters;

    public List<String> getClusters() {
        return clusters;
    }

    public void setClusters(List<String> clusters) {
        this.clusters = clusters;
    }
}
