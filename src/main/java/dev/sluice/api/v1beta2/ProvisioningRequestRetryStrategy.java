package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** Exponential backoff of ProvisioningRequest retries. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningRequestRetryStrategy {

    @JsonPropertyDescription("Retries before the check is Rejected.")
    @Default("3")
    private Integer backoffLimitCount;

    @JsonPropertyDescription("Base of the exponential backoff.")
    @Default("60")
    private Integer backoffBaseSeconds;

    @JsonPropertyDescription("Longest wait between retries.")
    @Default("1800")
    private Integer backoffMaxSeconds;

    public Integer getBackoffLimitCount() {
        return backoffLimitCount;
    }

    public void setBackoffLimitCount(Integer backoffLimitCount) {
        this.backoffLimitCount = backoffLimitCount;
    }

    public Integer getBackoffBaseSeconds() {
        return backoffBaseSeconds;
    }

    public void setBackoffBaseSeconds(Integer backoffBaseSeconds) {
        this.backoffBaseSeconds = backoffBaseSeconds;
    }

    public Integer getBackoffMaxSeconds() {
        return backoffMaxSeconds;
    }

    public void setBackoffMaxSeconds(Integer backoffMaxSeconds) {
        this.backoffMaxSeconds = backoffMaxSeconds;
    }
}
