package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.WorkloadStatusFields;

/** Observed state of a v1beta1 Workload; status.admission is the record of admission. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadStatus extends WorkloadStatusFields {

    @JsonPropertyDescription("Set while quota is reserved.")
    private Admission admission;

    public Admission getAdmission() {
        return admission;
    }

    public void setAdmission(Admission admission) {
        this.admission = admission;
    }
}
