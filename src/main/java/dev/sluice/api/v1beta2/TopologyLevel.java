package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One level of a Topology: the node label whose values name its domains. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologyLevel {

    /** Kueue's pattern for a node label key (an optional DNS subdomain prefix and a name). */
    public static final String NODE_LABEL_PATTERN = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$";
    public static final int NODE_LABEL_MAX_LENGTH = 316;

    @JsonPropertyDescription("Node label of this level, e.g. cloud.provider.com/topology-rack.")
    @Required
    @Size(min = 1, max = NODE_LABEL_MAX_LENGTH)
    @Pattern(NODE_LABEL_PATTERN)
    private String nodeLabel;

    public TopologyLevel() {
    }

    public TopologyLevel(String nodeLabel) {
        this.nodeLabel = nodeLabel;
    }

    public String getNodeLabel() {
        return nodeLabel;
    }

    public void setNodeLabel(String nodeLabel) {
        this.nodeLabel = nodeLabel;
    }
}
