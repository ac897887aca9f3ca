package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.LocationType;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;

/** Where a worker cluster's kubeconfig is (v1beta1: both fields required, no length limits). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KubeConfig {

    @JsonPropertyDescription("The Secret's name or the file's path.")
    @Required
    private String location;

    @JsonPropertyDescription("Secret (default) or Path.")
    @Required
    @Default("Secret")
    private LocationType locationType;

    public String getLocation() {
        return location;
    }

    public void setLocation(String location) {
        this.location = location;
    }

    public LocationType getLocationType() {
        return locationType;
    }

    public void setLocationType(LocationType locationType) {
        this.locationType = locationType;
    }
}
