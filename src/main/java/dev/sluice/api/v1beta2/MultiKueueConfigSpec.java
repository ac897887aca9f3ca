package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** Spec of a MultiKueueConfig: the worker clusters a MultiKueue admission check dispatches to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MultiKueueConfigSpec {

    @JsonPropertyDescription("Names of the MultiKueueClusters.")
    @Required
    @Size(min = 1, max = 20)
    @ValidationRule(value = "size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0", message = "must be unique")
    private List<String> clusters;

    @JsonPropertyDescription("Manual or Automated quota management of the worker clusters.")
    private MultiKueueQuotaManagement quotaManagement;

    public List<String> getClusters() {
        return clusters;
    }

    public void setClusters(List<String> clusters) {
        this.clusters = clusters;
    }

    public MultiKueueQuotaManagement getQuotaManagement() {
        return quotaManagement;
    }

    public void setQuotaManagement(MultiKueueQuotaManagement quotaManagement) {
        this.quotaManagement = quotaManagement;
    }
}
