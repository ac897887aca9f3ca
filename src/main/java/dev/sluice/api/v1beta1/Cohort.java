package dev.sluice.api.v1beta1;

import dev.sluice.api.v1beta2.CohortSpec;
import dev.sluice.api.v1beta2.CohortStatus;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A node of a cohort tree: ClusterQueues name it in spec.cohortName, Cohorts in spec.parentName; its own
 * resourceGroups are a pool for its subtree. Cluster-scoped.
 */
@Group(Kueue.GROUP)
@Version(value = Kueue.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = Kueue.DEPRECATION_WARNING)
@Kind("Cohort")
@Plural("cohorts")
@Singular("cohort")
public class Cohort extends CustomResource<CohortSpec, CohortStatus> {
}
