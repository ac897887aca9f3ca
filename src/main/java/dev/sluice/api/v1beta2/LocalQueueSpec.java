package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** Spec of a LocalQueue: the namespace-scoped queue users submit to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueSpec {

    @JsonPropertyDescription("The ClusterQueue this LocalQueue feeds; immutable.")
    private String clusterQueue;

    @JsonPropertyDescription("None (default), Hold or HoldAndDrain.")
    @Default("None")
    private StopPolicy stopPolicy;

    @JsonPropertyDescription("This LocalQueue's weight in admission fair sharing.")
    private FairSharing fairSharing;

    public FairSharing getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(FairSharing fairSharing) {
        this.fairSharing = fairSharing;
    }

    public String getClusterQueue() {
        return clusterQueue;
    }

    public void setClusterQueue(String clusterQueue) {
        this.clusterQueue = clusterQueue;
    }

    public StopPolicy getStopPolicy() {
        return stopPolicy;
    }

    public void setStopPolicy(StopPolicy stopPolicy) {
        this.stopPolicy = stopPolicy;
    }
}
