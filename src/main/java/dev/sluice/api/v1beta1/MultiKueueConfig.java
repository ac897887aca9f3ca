package dev.sluice.api.v1beta1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Parameters of a MultiKueue admission check: the worker clusters; cluster-scoped. */
@Group(Kueue.GROUP)
// Kueue serves v1beta1 MultiKueueConfig without deprecating it
@Version(value = Kueue.VERSION, storage = false, served = true)
@Kind("MultiKueueConfig")
@Plural("multikueueconfigs")
@Singular("multikueueconfig")
@ShortNames("mkconf")
public class MultiKueueConfig extends CustomResource<MultiKueueConfigSpec, Void> {
}
