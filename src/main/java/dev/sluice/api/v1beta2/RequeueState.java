package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** When and how often an evicted workload was queued again. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RequeueState {

    @JsonPropertyDescription("Number of requeues.")
    private Integer count;

    @JsonPropertyDescription("Time the workload becomes eligible again.")
    private String requeueAt;

    public Integer getCount() {
        return count;
    }

    public void setCount(Integer count) {
        this.count = count;
    }

    public String getRequeueAt() {
        return requeueAt;
    }

    public void setRequeueAt(String requeueAt) {
        this.requeueAt = requeueAt;
    }
}
