package dev.sluice.config;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Native image only: Jackson builds {@link KueueConfig} and its nested records by reflection when the configuration
 * file is read at start. Every nested type is listed (KueueConfigReflectionTest checks that none is missing).
 */
@RegisterForReflection(targets = { KueueConfig.class, KueueConfig.Integrations.class, KueueConfig.WaitForPodsReady.class,
        KueueConfig.RequeuingStrategy.class, KueueConfig.FairSharing.class, KueueConfig.AdmissionFairSharing.class,
        KueueConfig.ObjectRetentionPolicies.class, KueueConfig.WorkloadRetention.class })
final class KueueConfigReflection {
    private KueueConfigReflection() {
    }
}
