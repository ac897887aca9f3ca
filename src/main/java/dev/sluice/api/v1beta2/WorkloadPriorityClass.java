package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A workload priority independent of pod priority; like PriorityClass, the value is top-level. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = true, served = true)
@Kind("WorkloadPriorityClass")
@Plural("workloadpriorityclasses")
@Singular("workloadpriorityclass")
@AdditionalPrinterColumn(name = "Value", jsonPath = ".value", type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "Value of workload's priority")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadPriorityClass extends CustomResource<Void, Void> {

    @Required
    @JsonPropertyDescription("Priority value; higher is admitted first.")
    private Integer value;

    @JsonPropertyDescription("What this priority class is for.")
    private String description;

    public Integer getValue() {
        return value;
    }

    public void setValue(Integer value) {
        this.value = value;
    }

    public String getDescription() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description;
    }
}
