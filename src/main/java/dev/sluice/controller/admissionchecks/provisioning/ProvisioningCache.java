package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.List;

/** What the reconcilers read, from informers (null: not there, or not seen yet). */
interface ProvisioningCache {

    Workload workload(String namespace, String name);

    AdmissionCheck admissionCheck(String name);

    ProvisioningRequestConfig config(String name);

    ResourceFlavor flavor(String name);

    /** The ProvisioningRequests in the namespace with an ownerReference naming the Workload (Kueue's owner index). */
    List<GenericKubernetesResource> requestsOwnedBy(String namespace, String workload);

    GenericKubernetesResource request(String namespace, String name);

    /** A PodTemplate this controller made (labelled kueue.x-k8s.io/managed=true). */
    PodTemplate podTemplate(String namespace, String name);
}
