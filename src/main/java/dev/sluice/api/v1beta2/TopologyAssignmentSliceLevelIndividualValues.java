package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Per-domain values at one level: a common prefix and suffix around one root per domain. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologyAssignmentSliceLevelIndividualValues {

    @JsonPropertyDescription("Common prefix of the values (absent or not empty).")
    @Size(max = 63)
    private String prefix;

    @JsonPropertyDescription("Common suffix of the values (absent or not empty).")
    @Size(max = 63)
    private String suffix;

    @JsonPropertyDescription("One root per domain of the slice.")
    @Required
    @Size(min = 1, max = 100000)
    private List<String> roots;

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public String getSuffix() {
        return suffix;
    }

    public void setSuffix(String suffix) {
        this.suffix = suffix;
    }

    public List<String> getRoots() {
        return roots;
    }

    public void setRoots(List<String> roots) {
        this.roots = roots;
    }
}
