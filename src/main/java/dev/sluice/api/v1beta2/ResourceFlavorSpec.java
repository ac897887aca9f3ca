package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/** Spec of a ResourceFlavor: how pods that use this flavor find their nodes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceFlavorSpec {

    @JsonPropertyDescription("Labels of the nodes of this flavor; copied into the nodeSelector of admitted pods.")
    @Size(max = 8)
    private Map<String, String> nodeLabels;

    @JsonPropertyDescription("Taints of the nodes of this flavor; a pod set must tolerate them to use the flavor.")
    @Size(max = 8)
    private List<Taint> nodeTaints;

    @JsonPropertyDescription("Tolerations added to admitted pods that use this flavor.")
    @Size(max = 8)
    private List<Toleration> tolerations;

    @JsonPropertyDescription("Name of the Topology for topology-aware scheduling (not used by Sluice yet).")
    private String topologyName;

    public Map<String, String> getNodeLabels() {
        return nodeLabels;
    }

    public void setNodeLabels(Map<String, String> nodeLabels) {
        this.nodeLabels = nodeLabels;
    }

    public List<Taint> getNodeTaints() {
        return nodeTaints;
    }

    public void setNodeTaints(List<Taint> nodeTaints) {
        this.nodeTaints = nodeTaints;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public String getTopologyName() {
        return topologyName;
    }

    public void setTopologyName(String topologyName) {
        this.topologyName = topologyName;
    }
}
