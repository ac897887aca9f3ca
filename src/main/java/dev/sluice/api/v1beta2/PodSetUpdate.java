package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/** Labels, annotations, node selector and tolerations an admission check adds to one pod set's pods. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetUpdate {

    @JsonPropertyDescription("Name of the pod set.")
    @Required
    @Size(max = 63)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    private String name;

    @JsonPropertyDescription("Labels added to the pods.")
    private Map<String, String> labels;

    @JsonPropertyDescription("Annotations added to the pods.")
    private Map<String, String> annotations;

    @JsonPropertyDescription("Node selector added to the pods.")
    private Map<String, String> nodeSelector;

    @JsonPropertyDescription("Tolerations added to the pods.")
    @Size(max = 8)
    private List<Toleration> tolerations;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    public Map<String, String> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }
}
