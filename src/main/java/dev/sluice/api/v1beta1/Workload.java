package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.PodSet;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** The unit of admission: what one job needs (pod sets) and, in status, where it was admitted. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("Workload")
@Plural("workloads")
@Singular("workload")
@ShortNames({ "wl" })
@AdditionalPrinterColumn(name = "Queue", jsonPath = ".spec.queueName", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "Name of the queue this workload was submitted to")
@AdditionalPrinterColumn(name = "Reserved in", jsonPath = ".status.admission.clusterQueue",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Name of the ClusterQueue where the workload is reserving quota")
@AdditionalPrinterColumn(name = "Admitted", jsonPath = ".status.conditions[?(@.type=='Admitted')].status",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Admission status")
@AdditionalPrinterColumn(name = "Finished", jsonPath = ".status.conditions[?(@.type=='Finished')].status",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Workload finished")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE,
        getDescription = "Time this workload was created")
// v1beta1's pod sets share v1beta2's class; only the schema of their topology request is v1beta1's
@SchemaSwap(originalType = PodSet.class, fieldName = "topologyRequest", targetType = PodSetTopologyRequest.class)
public class Workload extends CustomResource<WorkloadSpec, WorkloadStatus> implements Namespaced {
}
