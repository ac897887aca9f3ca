package dev.sluice.engine;

import java.util.List;
import java.util.Map;

/**
 * A cohort for metrics and the dashboard, as Kueue's {@code kueue_cohort_subtree_*} count it: clusterQueues are all
 * the ClusterQueues of its subtree (sorted), memberQueues and childCohorts its direct children; nominalQuota is the
 * subtree quota (its own pool plus what its children may lend it), usage the subtree's ClusterQueues' usage summed.
 */
public record CohortStatus(String name, List<String> clusterQueues, List<String> memberQueues,
                           List<String> childCohorts, Map<FlavorResource, Long> nominalQuota,
                           Map<FlavorResource, Long> usage) {
}
