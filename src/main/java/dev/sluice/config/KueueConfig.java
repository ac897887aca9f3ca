package dev.sluice.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What Sluice reads of Kueue's Configuration (config.kueue.x-k8s.io v1beta1 or v1beta2, the
 * controller_manager_config.yaml of Kueue's chart). Sections other features are built to read (waitForPodsReady,
 * fairSharing, admissionFairSharing, objectRetentionPolicies) are typed here for them; {@link KueueConfigReader}
 * says at start which of them nothing applies yet.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record KueueConfig(String apiVersion, String kind, Boolean manageJobsWithoutQueueName,
                          JsonNode managedJobsNamespaceSelector, Integrations integrations, WaitForPodsReady waitForPodsReady,
                          FairSharing fairSharing, AdmissionFairSharing admissionFairSharing,
                          ObjectRetentionPolicies objectRetentionPolicies) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Integrations(List<String> frameworks, List<String> externalFrameworks) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WaitForPodsReady(Boolean enable, String timeout, Boolean blockAdmission, String recoveryTimeout,
                                   RequeuingStrategy requeuingStrategy) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RequeuingStrategy(String timestamp, Integer backoffLimitCount, Integer backoffBaseSeconds,
                                    Integer backoffMaxSeconds) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FairSharing(Boolean enable, List<String> preemptionStrategies) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AdmissionFairSharing(String usageHalfLifeTime, String usageSamplingInterval,
                                       Map<String, Double> resourceWeights) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ObjectRetentionPolicies(WorkloadRetention workloads) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WorkloadRetention(String afterFinished, String afterDeactivatedByKueue) {
    }
}
