/**
 * The admission check controller {@code kueue.x-k8s.io/provisioning-request}, as Kueue v0.19.2's
 * {@code pkg/controller/admissionchecks/provisioning}: for each Workload that reserved quota and waits on such a check
 * it creates {@code autoscaling.x-k8s.io/v1} ProvisioningRequests (and their PodTemplates) for the cluster autoscaler,
 * and maps their conditions to the check's state; it sets the {@code Active} condition of those AdmissionChecks.
 * <p>
 * Pure rules ({@code RequestNames}, {@code PodSets}, {@code CheckStates}, {@code ParametersRef}) beside the
 * reconcilers ({@code WorkloadReconciler}, {@code AdmissionCheckReconciler}) that read {@code ProvisioningCache} and
 * write through {@code controller.write}; {@code ProvisioningRoom} runs them on informer events while this replica
 * leads ({@code ProvisioningController}).
 */
package dev.sluice.controller.admissionchecks.provisioning;
