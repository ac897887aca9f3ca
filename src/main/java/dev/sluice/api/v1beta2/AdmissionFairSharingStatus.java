package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** A LocalQueue's decayed usage under admission fair sharing (Kueue's AdmissionFairSharingStatus). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionFairSharingStatus {

    @JsonPropertyDescription("Resources consumed by the LocalQueue's workloads, decayed with usageHalfLifeTime.")
    private Map<String, Quantity> consumedResources;

    @JsonPropertyDescription("When consumedResources was last sampled.")
    private String lastUpdate;

    public Map<String, Quantity> getConsumedResources() {
        return consumedResources;
    }

    public void setConsumedResources(Map<String, Quantity> consumedResources) {
        this.consumedResources = consumedResources;
    }

    public String getLastUpdate() {
        return lastUpdate;
    }

    public void setLastUpdate(String lastUpdate) {
        this.lastUpdate = lastUpdate;
    }
}
