package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
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
    // Kueue's rules on the tolerations an admission check adds
    @ValidationRule(value = "self.all(x, !has(x.key) ? x.operator == 'Exists' : true)",
            message = "operator must be Exists when 'key' is empty, which means 'match all values and all keys'")
    @ValidationRule(value = "self.all(x, has(x.tolerationSeconds) ? x.effect == 'NoExecute' : true)",
            message = "effect must be 'NoExecute' when 'tolerationSeconds' is set")
    @ValidationRule(value = "self.all(x, !has(x.operator) || x.operator in ['Equal', 'Exists'])",
            message = "supported toleration values: 'Equal'(default), 'Exists'")
    @ValidationRule(value = "self.all(x, has(x.operator) && x.operator == 'Exists' ? !has(x.value) : true)",
            message = "a value must be empty when 'operator' is 'Exists'")
    @ValidationRule(value = "self.all(x, !has(x.effect) || x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])",
            message = "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'")
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
