package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Observed state of a LocalQueue. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueStatus extends LocalQueueStatusFields {

    @JsonPropertyDescription("Quota used by admitted workloads, per flavor and resource.")
    private List<LocalQueueFlavorUsage> flavorsUsage;

    public List<LocalQueueFlavorUsage> getFlavorsUsage() {
        return flavorsUsage;
    }

    public void setFlavorsUsage(List<LocalQueueFlavorUsage> flavorsUsage) {
        this.flavorsUsage = flavorsUsage;
    }
}
