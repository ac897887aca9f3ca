package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.PodSetAssignmentFields;

/** Flavors assigned to one pod set, and where in the topology its pods go (v1beta1's list of domains). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetAssignment extends PodSetAssignmentFields {

    @JsonPropertyDescription("Topology domains of the pods and how many go to each.")
    private TopologyAssignment topologyAssignment;

    @JsonPropertyDescription("Pending while the topology assignment waits for an admission check (e.g. provisioning),"
            + " Ready once made.")
    private String delayedTopologyRequest;

    public TopologyAssignment getTopologyAssignment() {
        return topologyAssignment;
    }

    public void setTopologyAssignment(TopologyAssignment topologyAssignment) {
        this.topologyAssignment = topologyAssignment;
    }

    public String getDelayedTopologyRequest() {
        return delayedTopologyRequest;
    }

    public void setDelayedTopologyRequest(String delayedTopologyRequest) {
        this.delayedTopologyRequest = delayedTopologyRequest;
    }
}
