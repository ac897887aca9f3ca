package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Spec of a ResourceFlavor: how pods that use this flavor find their nodes. With a topologyName (Kueue's CEL rules,
 * the same in v1beta1) it needs node labels, and its node labels, tolerations and topology no longer change.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = ResourceFlavorSpec.TOPOLOGY_NEEDS_NODE_LABELS_RULE, message = ResourceFlavorSpec.TOPOLOGY_NEEDS_NODE_LABELS)
@ValidationRule(value = "!has(oldSelf.topologyName) || (has(self.nodeLabels) == has(oldSelf.nodeLabels)"
        + " && (!has(self.nodeLabels) || self.nodeLabels == oldSelf.nodeLabels))",
        message = ResourceFlavorSpec.NODE_LABELS_IMMUTABLE)
@ValidationRule(value = "!has(oldSelf.topologyName) || (has(self.tolerations) == has(oldSelf.tolerations)"
        + " && (!has(self.tolerations) || self.tolerations == oldSelf.tolerations))",
        message = ResourceFlavorSpec.TOLERATIONS_IMMUTABLE)
@ValidationRule(value = "!has(oldSelf.topologyName) || (has(self.topologyName) && self.topologyName == oldSelf.topologyName)",
        message = ResourceFlavorSpec.TOPOLOGY_NAME_IMMUTABLE)
public class ResourceFlavorSpec {

    public static final String TOPOLOGY_NEEDS_NODE_LABELS_RULE = "!has(self.topologyName) || self.nodeLabels.size() >= 1";
    public static final String TOPOLOGY_NEEDS_NODE_LABELS = "at least one nodeLabel is required when topology is set";
    public static final String NODE_LABELS_IMMUTABLE = "nodeLabels are immutable when topologyName is set";
    public static final String TOLERATIONS_IMMUTABLE = "tolerations are immutable when topologyName is set";
    public static final String TOPOLOGY_NAME_IMMUTABLE = "topologyName is immutable when topologyName is set";
    /** A Topology's name: a DNS subdomain. */
    public static final String TOPOLOGY_NAME_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

    @JsonPropertyDescription("Labels of the nodes of this flavor; copied into the nodeSelector of admitted pods.")
    @Size(max = 8)
    private Map<String, String> nodeLabels;

    @JsonPropertyDescription("Taints of the nodes of this flavor; a pod set must tolerate them to use the flavor.")
    @Size(max = 8)
    private List<Taint> nodeTaints;

    @JsonPropertyDescription("Tolerations added to admitted pods that use this flavor.")
    @Size(max = 8)
    private List<Toleration> tolerations;

    @JsonPropertyDescription("Name of the Topology of this flavor's nodes, for topology-aware scheduling (stored and"
            + " validated; Sluice does not place pods by it yet).")
    @Size(max = 253)
    @Pattern(TOPOLOGY_NAME_PATTERN)
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
