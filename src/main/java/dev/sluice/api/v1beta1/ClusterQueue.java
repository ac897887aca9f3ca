package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.ClusterQueueStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Quota for a group of namespaces, per flavor and resource; cluster-scoped. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("ClusterQueue")
@Plural("clusterqueues")
@Singular("clusterqueue")
@ShortNames({ "cq" })
@AdditionalPrinterColumn(name = "Cohort", jsonPath = ".spec.cohort", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "Cohort that this ClusterQueue belongs to")
@AdditionalPrinterColumn(name = "Strategy", jsonPath = ".spec.queueingStrategy", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "The queueing strategy used to prioritize workloads", priority = 1)
@AdditionalPrinterColumn(name = "Pending Workloads", jsonPath = ".status.pendingWorkloads",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of pending workloads")
@AdditionalPrinterColumn(name = "Admitted Workloads", jsonPath = ".status.admittedWorkloads",
        type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "Number of admitted workloads that haven't finished yet", priority = 1)
public class ClusterQueue extends CustomResource<ClusterQueueSpec, ClusterQueueStatus> {
}
