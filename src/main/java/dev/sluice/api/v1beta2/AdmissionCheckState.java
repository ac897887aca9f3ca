package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** The state of one admission check of a Workload. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionCheckState {

    @JsonPropertyDescription("Name of the AdmissionCheck.")
    @Required
    @Size(min = 1, max = 316)
    private String name;

    @JsonPropertyDescription("Pending, Ready, Retry or Rejected.")
    @Required
    private CheckState state;

    @JsonPropertyDescription("When the state last changed (RFC 3339).")
    @Required
    private String lastTransitionTime;

    @JsonPropertyDescription("Why the check is in this state.")
    @Required
    @Size(max = 32768)
    private String message;

    @JsonPropertyDescription("Times the check was retried.")
    @Min(0)
    private Integer retryCount;

    @JsonPropertyDescription("Seconds to wait before the Workload is queued again after a Retry.")
    @Min(0)
    private Integer requeueAfterSeconds;

    @JsonPropertyDescription("What the check adds to each pod set's pods once it is Ready.")
    @Size(max = 18)
    private List<PodSetUpdate> podSetUpdates;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public CheckState getState() {
        return state;
    }

    public void setState(CheckState state) {
        this.state = state;
    }

    public String getLastTransitionTime() {
        return lastTransitionTime;
    }

    public void setLastTransitionTime(String lastTransitionTime) {
        this.lastTransitionTime = lastTransitionTime;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public Integer getRetryCount() {
        return retryCount;
    }

    public void setRetryCount(Integer retryCount) {
        this.retryCount = retryCount;
    }

    public Integer getRequeueAfterSeconds() {
        return requeueAfterSeconds;
    }

    public void setRequeueAfterSeconds(Integer requeueAfterSeconds) {
        this.requeueAfterSeconds = requeueAfterSeconds;
    }

    public List<PodSetUpdate> getPodSetUpdates() {
        return podSetUpdates;
    }

    public void setPodSetUpdates(List<PodSetUpdate> podSetUpdates) {
        this.podSetUpdates = podSetUpdates;
    }
}
