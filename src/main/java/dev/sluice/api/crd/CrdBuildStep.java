package dev.sluice.api.crd;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Build step (run by Maven after the Quarkus build wrote target/kubernetes/): what the CRD generator cannot say —
 * printer columns in Kueue's order, and the conversion webhook that turns v1beta1 into the stored v1beta2.
 */
public final class CrdBuildStep {

    /** Every served version of every kind (one CRD per kind, one version per class). */
    static final List<Class<? extends HasMetadata>> KINDS = List.of(
            dev.sluice.api.v1beta2.ResourceFlavor.class, dev.sluice.api.v1beta1.ResourceFlavor.class,
            dev.sluice.api.v1beta2.ClusterQueue.class, dev.sluice.api.v1beta1.ClusterQueue.class,
            dev.sluice.api.v1beta2.LocalQueue.class, dev.sluice.api.v1beta1.LocalQueue.class,
            dev.sluice.api.v1beta2.Workload.class, dev.sluice.api.v1beta1.Workload.class,
            dev.sluice.api.v1beta2.WorkloadPriorityClass.class, dev.sluice.api.v1beta1.WorkloadPriorityClass.class,
            dev.sluice.api.v1beta2.Cohort.class, dev.sluice.api.v1beta1.Cohort.class,
            dev.sluice.api.v1beta2.Topology.class, dev.sluice.api.v1beta1.Topology.class,
            // admission checks, ProvisioningRequest, MultiKueue: stored and served, not acted on yet
            dev.sluice.api.v1beta2.AdmissionCheck.class, dev.sluice.api.v1beta1.AdmissionCheck.class,
            dev.sluice.api.v1beta2.ProvisioningRequestConfig.class, dev.sluice.api.v1beta1.ProvisioningRequestConfig.class,
            dev.sluice.api.v1beta2.MultiKueueConfig.class, dev.sluice.api.v1beta1.MultiKueueConfig.class,
            dev.sluice.api.v1beta2.MultiKueueCluster.class, dev.sluice.api.v1beta1.MultiKueueCluster.class);

    private CrdBuildStep() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/kubernetes");
        PrinterColumnOrder.apply(dir, KINDS);
        ConversionWebhookStanza.apply(dir, KINDS);
    }

    static Path file(Path dir, Class<? extends HasMetadata> kind) {
        return dir.resolve(HasMetadata.getPlural(kind) + "." + HasMetadata.getGroup(kind) + "-v1.yml");
    }
}
