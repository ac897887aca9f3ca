package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.TopologySpec;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** The levels of a node topology, highest first; cluster-scoped. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("Topology")
@Plural("topologies")
@Singular("topology")
@ShortNames({ "topo" })
public class Topology extends CustomResource<TopologySpec, Void> {
}
