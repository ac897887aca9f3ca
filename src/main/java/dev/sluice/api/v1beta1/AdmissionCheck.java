package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.AdmissionCheckStatus;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A check a workload must pass, besides quota, before it is admitted; decided by the controller it names; cluster-scoped. */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("AdmissionCheck")
@Plural("admissionchecks")
@Singular("admissioncheck")
@ShortNames("ac")
public class AdmissionCheck extends CustomResource<AdmissionCheckSpec, AdmissionCheckStatus> {
}
