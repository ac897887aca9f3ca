package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.LocalQueueFlavorUsage;
import dev.sluice.api.v1beta2.LocalQueueStatusFields;
import java.util.List;

/** Observed state of a LocalQueue. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueStatus extends LocalQueueStatusFields {

    @JsonPropertyDescription("Quota used by admitted workloads, per flavor and resource.")
    private List<LocalQueueFlavorUsage> flavorUsage;

    public List<LocalQueueFlavorUsage> getFlavorUsage() {
        return flavorUsage;
    }

    public void setFlavorUsage(List<LocalQueueFlavorUsage> flavorUsage) {
        this.flavorUsage = flavorUsage;
    }
}
