package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.LocalQueueSpec;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** The queue users submit to in their namespace; it feeds one ClusterQueue. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("LocalQueue")
@Plural("localqueues")
@Singular("localqueue")
@ShortNames({ "queue", "queues", "lq" })
@AdditionalPrinterColumn(name = "ClusterQueue", jsonPath = ".spec.clusterQueue", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "Backing ClusterQueue")
@AdditionalPrinterColumn(name = "Pending Workloads", jsonPath = ".status.pendingWorkloads",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of pending workloads")
@AdditionalPrinterColumn(name = "Admitted Workloads", jsonPath = ".status.admittedWorkloads",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of admitted workloads that haven't finished yet")
public class LocalQueue extends CustomResource<LocalQueueSpec, LocalQueueStatus> implements Namespaced {
}
