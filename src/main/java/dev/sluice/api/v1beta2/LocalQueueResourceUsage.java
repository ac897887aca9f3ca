package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;

/** Usage of one resource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalQueueResourceUsage {

    @JsonPropertyDescription("Resource name.")
    private String name;

    @JsonPropertyDescription("Quantity in use or reserved.")
    private Quantity total;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Quantity getTotal() {
        return total;
    }

    public void setTotal(Quantity total) {
        this.total = total;
    }
}
