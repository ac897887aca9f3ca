package dev.sluice.api.v1beta2;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Parameters of a ProvisioningRequest admission check (its AdmissionCheck names this object); cluster-scoped. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = true, served = true)
@Kind("ProvisioningRequestConfig")
@Plural("provisioningrequestconfigs")
@Singular("provisioningrequestconfig")
@ShortNames("prc")
public class ProvisioningRequestConfig extends CustomResource<ProvisioningRequestConfigSpec, Void> {
}
