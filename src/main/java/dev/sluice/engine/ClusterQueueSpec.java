package dev.sluice.engine;

import java.util.List;
import java.util.Objects;

/**
 * A ClusterQueue. cohort null = none; namespaceSelector null selects no namespace, an empty one all;
 * null strategy/preemption/fungibility/stopPolicy take Kueue's defaults; fairSharingWeight null = 1 (0 = only idle
 * capacity, when fair sharing is on); admissionMode null = NoAdmissionFairSharing (Kueue's
 * spec.admissionScope.admissionMode); admissionChecks null = none (Kueue's spec.admissionChecksStrategy).
 */
public record ClusterQueueSpec(String name, String cohort, List<ResourceGroupSpec> resourceGroups,
                               QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                               PreemptionSpec preemption, FlavorFungibility flavorFungibility, StopPolicy stopPolicy,
                               Double fairSharingWeight, AdmissionMode admissionMode,
                               List<AdmissionCheckRule> admissionChecks) {
    public ClusterQueueSpec(String name, String cohort, List<ResourceGroupSpec> resourceGroups,
                            QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                            PreemptionSpec preemption, FlavorFungibility flavorFungibility, StopPolicy stopPolicy,
                            Double fairSharingWeight, AdmissionMode admissionMode) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption, flavorFungibility,
                stopPolicy, fairSharingWeight, admissionMode, null);
    }

    public ClusterQueueSpec(String name, String cohort, List<ResourceGroupSpec> resourceGroups,
                            QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                            PreemptionSpec preemption, FlavorFungibility flavorFungibility, StopPolicy stopPolicy,
                            Double fairSharingWeight) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption, flavorFungibility,
                stopPolicy, fairSharingWeight, null);
    }

    public ClusterQueueSpec(String name, String cohort, List<ResourceGroupSpec> resourceGroups,
                            QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                            PreemptionSpec preemption, FlavorFungibility flavorFungibility, StopPolicy stopPolicy) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption, flavorFungibility,
                stopPolicy, null);
    }

    public ClusterQueueSpec {
        if (fairSharingWeight != null && (fairSharingWeight < 0 || fairSharingWeight.isNaN())) {
            throw new IllegalArgumentException("ClusterQueue " + name + ": fairSharing.weight must not be negative");
        }
        Objects.requireNonNull(name, "ClusterQueue name");
        cohort = cohort == null || cohort.isEmpty() ? null : cohort;
        resourceGroups = resourceGroups == null ? List.of() : List.copyOf(resourceGroups);
        queueingStrategy = queueingStrategy == null ? QueueingStrategy.BestEffortFIFO : queueingStrategy;
        preemption = preemption == null ? PreemptionSpec.defaults() : preemption;
        flavorFungibility = flavorFungibility == null ? FlavorFungibility.defaults() : flavorFungibility;
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
        admissionMode = admissionMode == null ? AdmissionMode.NoAdmissionFairSharing : admissionMode;
        admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
    }

    /** The same ClusterQueue with another admission mode. */
    public ClusterQueueSpec withAdmissionMode(AdmissionMode mode) {
        return new ClusterQueueSpec(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption,
                flavorFungibility, stopPolicy, fairSharingWeight, mode, admissionChecks);
    }

    /** The same ClusterQueue with other admission checks. */
    public ClusterQueueSpec withAdmissionChecks(List<AdmissionCheckRule> checks) {
        return new ClusterQueueSpec(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, preemption,
                flavorFungibility, stopPolicy, fairSharingWeight, admissionMode, checks);
    }

    public double weight() {
        return fairSharingWeight == null ? 1.0 : fairSharingWeight;
    }
}
