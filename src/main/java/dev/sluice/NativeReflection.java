package dev.sluice;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadPriorityClass;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Native image only: Jackson reads and writes these by reflection. The full hierarchy brings every spec, status and
 * nested type of the Kueue API: v1beta2's, which v1beta1 shares where the versions agree, and v1beta1's own (its
 * custom resources and the specs and statuses that differ); the admission review the webhooks answer, and the
 * untyped jobs the adapters edit.
 */
@RegisterForReflection(targets = { ClusterQueue.class, LocalQueue.class, ResourceFlavor.class, Workload.class,
        WorkloadPriorityClass.class, Cohort.class, dev.sluice.api.v1beta1.ClusterQueue.class,
        dev.sluice.api.v1beta1.LocalQueue.class, dev.sluice.api.v1beta1.ResourceFlavor.class,
        dev.sluice.api.v1beta1.Workload.class, dev.sluice.api.v1beta1.WorkloadPriorityClass.class,
        dev.sluice.api.v1beta1.Cohort.class, dev.sluice.api.v1beta2.Topology.class, dev.sluice.api.v1beta1.Topology.class,
        AdmissionReview.class,
        dev.sluice.api.v1beta2.AdmissionCheck.class, dev.sluice.api.v1beta1.AdmissionCheck.class,
        dev.sluice.api.v1beta2.ProvisioningRequestConfig.class, dev.sluice.api.v1beta1.ProvisioningRequestConfig.class,
        dev.sluice.api.v1beta2.MultiKueueConfig.class, dev.sluice.api.v1beta1.MultiKueueConfig.class,
        dev.sluice.api.v1beta2.MultiKueueCluster.class, dev.sluice.api.v1beta1.MultiKueueCluster.class,
        GenericKubernetesResource.class },
        registerFullHierarchy = true)
final class NativeReflection {
    private NativeReflection() {
    }
}
