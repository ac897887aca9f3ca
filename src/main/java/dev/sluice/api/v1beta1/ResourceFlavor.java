package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.ResourceFlavorSpec;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A kind of node (labels, taints) that quota is counted in; cluster-scoped. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("ResourceFlavor")
@Plural("resourceflavors")
@Singular("resourceflavor")
@ShortNames({ "flavor", "flavors", "rf" })
public class ResourceFlavor extends CustomResource<ResourceFlavorSpec, Void> {
}
