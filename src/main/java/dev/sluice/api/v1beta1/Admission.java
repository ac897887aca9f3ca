package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/** Where a workload reserved quota (v1beta1: its pod set assignments list topology domains). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Admission {

    @JsonPropertyDescription("ClusterQueue that admitted the workload.")
    @Required
    private String clusterQueue;

    @JsonPropertyDescription("Flavors per pod set.")
    @Required
    private List<PodSetAssignment> podSetAssignments;

    public String getClusterQueue() {
        return clusterQueue;
    }

    public void setClusterQueue(String clusterQueue) {
        this.clusterQueue = clusterQueue;
    }

    public List<PodSetAssignment> getPodSetAssignments() {
        return podSetAssignments;
    }

    public void setPodSetAssignments(List<PodSetAssignment> podSetAssignments) {
        this.podSetAssignments = podSetAssignments;
    }
}
