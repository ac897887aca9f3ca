package dev.sluice.api.v1beta2;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The levels of a data centre's node topology (block, rack, host), named by node labels, highest first; a
 * ResourceFlavor names it in spec.topologyName for topology-aware scheduling. Cluster-scoped, no status.
 */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = true, served = true)
@Kind("Topology")
@Plural("topologies")
@Singular("topology")
@ShortNames({ "topo" })
public class Topology extends CustomResource<TopologySpec, Void> {
}
