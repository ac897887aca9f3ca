package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Flavors assigned to one pod set, and where in the topology its pods go (v1beta2's compact slices). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetAssignment extends PodSetAssignmentFields {

    @JsonPropertyDescription("Topology domains of the pods and how many go to each (slices of domains).")
    private TopologyAssignment topologyAssignment;

    @JsonPropertyDescription("Pending while the topology assignment waits for an admission check (e.g. provisioning),"
            + " Ready once made.")
    private DelayedTopologyRequestState delayedTopologyRequest;

    public TopologyAssignment getTopologyAssignment() {
        return topologyAssignment;
    }

    public void setTopologyAssignment(TopologyAssignment topologyAssignment) {
        this.topologyAssignment = topologyAssignment;
    }

    public DelayedTopologyRequestState getDelayedTopologyRequest() {
        return delayedTopologyRequest;
    }

    public void setDelayedTopologyRequest(DelayedTopologyRequestState delayedTopologyRequest) {
        this.delayedTopologyRequest = delayedTopologyRequest;
    }
}
