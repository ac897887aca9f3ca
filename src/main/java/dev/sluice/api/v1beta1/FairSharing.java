package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;

/** A ClusterQueue's, Cohort's or LocalQueue's weight in fair sharing. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FairSharing {

    @JsonPropertyDescription("Weight relative to siblings; 1 by default, 0 means borrow only what nobody else wants.")
    private Quantity weight;

    public Quantity getWeight() {
        return weight;
    }

    public void setWeight(Quantity weight) {
        this.weight = weight;
    }
}
