package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Spec of a Cohort: its parent in the tree, its own quota pool and its fair-sharing weight. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CohortSpec {

    @JsonPropertyDescription("Parent Cohort; unset makes this Cohort a root.")
    private String parentName;

    @JsonPropertyDescription("Quota this Cohort itself holds, lent to its subtree.")
    @Size(max = 16)
    private List<ResourceGroup> resourceGroups;

    @JsonPropertyDescription("This Cohort's weight when fair sharing is on.")
    private FairSharing fairSharing;

    public String getParentName() {
        return parentName;
    }

    public void setParentName(String parentName) {
        this.parentName = parentName;
    }

    public List<ResourceGroup> getResourceGroups() {
        return resourceGroups;
    }

    public void setResourceGroups(List<ResourceGroup> resourceGroups) {
        this.resourceGroups = resourceGroups;
    }

    public FairSharing getFairSharing() {
        return fairSharing;
    }

    public void setFairSharing(FairSharing fairSharing) {
        this.fairSharing = fairSharing;
    }
}
