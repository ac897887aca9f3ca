package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** Spec of a Topology (the same in v1beta1): its levels, with Kueue's CEL rules on them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologySpec {

    public static final int MAX_LEVELS = 16;
    public static final String HOSTNAME = "kubernetes.io/hostname";
    public static final String IMMUTABLE_RULE = "self == oldSelf";
    public static final String IMMUTABLE_MESSAGE = "field is immutable";
    public static final String UNIQUE_RULE = "size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0";
    public static final String UNIQUE_MESSAGE = "must be unique";
    public static final String HOSTNAME_RULE = "size(self.filter(i, i.nodeLabel == 'kubernetes.io/hostname')) == 0"
            + " || self[size(self) - 1].nodeLabel == 'kubernetes.io/hostname'";
    public static final String HOSTNAME_MESSAGE = "the kubernetes.io/hostname label can only be used at the lowest level"
            + " of topology";

    @JsonPropertyDescription("Levels of the topology, highest first (e.g. block, rack, kubernetes.io/hostname); immutable.")
    @Required
    @Size(min = 1, max = MAX_LEVELS)
    @ValidationRule(value = IMMUTABLE_RULE, message = IMMUTABLE_MESSAGE)
    @ValidationRule(value = UNIQUE_RULE, message = UNIQUE_MESSAGE)
    @ValidationRule(value = HOSTNAME_RULE, message = HOSTNAME_MESSAGE)
    private List<TopologyLevel> levels;

    public List<TopologyLevel> getLevels() {
        return levels;
    }

    public void setLevels(List<TopologyLevel> levels) {
        this.levels = levels;
    }
}
