package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Quantity;

/** Quota of one resource in one flavor. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceQuota {

    @JsonPropertyDescription("Name of the resource, e.g. cpu or google.com/tpu.")
    @Required
    private String name;

    @JsonPropertyDescription("Quantity of this resource available to the ClusterQueue.")
    @Required
    private Quantity nominalQuota;

    @JsonPropertyDescription("Maximum this ClusterQueue may borrow from its cohort above nominalQuota; unlimited when unset. Only with a cohort.")
    private Quantity borrowingLimit;

    @JsonPropertyDescription("Maximum of the nominal quota this ClusterQueue lends to its cohort; all of it when unset. Only with a cohort.")
    private Quantity lendingLimit;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Quantity getNominalQuota() {
        return nominalQuota;
    }

    public void setNominalQuota(Quantity nominalQuota) {
        this.nominalQuota = nominalQuota;
    }

    public Quantity getBorrowingLimit() {
        return borrowingLimit;
    }

    public void setBorrowingLimit(Quantity borrowingLimit) {
        this.borrowingLimit = borrowingLimit;
    }

    public Quantity getLendingLimit() {
        return lendingLimit;
    }

    public void setLendingLimit(Quantity lendingLimit) {
        this.lendingLimit = lendingLimit;
    }
}
