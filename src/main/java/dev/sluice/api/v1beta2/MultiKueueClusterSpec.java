package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** Spec of a MultiKueueCluster: how to reach a worker cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MultiKueueClusterSpec {

    @JsonPropertyDescription("Where the connection to the worker cluster comes from.")
    @Required
    private ClusterSource clusterSource;

    public ClusterSource getClusterSource() {
        return clusterSource;
    }

    public void setClusterSource(ClusterSource clusterSource) {
        this.clusterSource = clusterSource;
    }
}
