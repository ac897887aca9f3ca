package dev.sluice.api.v1beta2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A worker cluster of MultiKueue and how to connect to it; cluster-scoped. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = true, served = true)
@Kind("MultiKueueCluster")
@Plural("multikueueclusters")
@Singular("multikueuecluster")
@ShortNames("mkc")
@AdditionalPrinterColumn(name = "Connected", jsonPath = ".status.conditions[?(@.type=='Active')].status",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "MultiKueueCluster is connected")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE,
        getDescription = "Time this workload was created")
public class MultiKueueCluster extends CustomResource<MultiKueueClusterSpec, MultiKueueClusterStatus> {
}
