package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Where a worker cluster's kubeconfig is: a Secret in Kueue's namespace or a path in the controller's pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KubeConfig {

    @JsonPropertyDescription("The Secret's name or the file's path.")
    @Required
    @Size(min = 1, max = 256)
    private String location;

    @JsonPropertyDescription("Secret (default) or Path.")
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
