package dev.sluice.engine;

import java.util.List;
import java.util.Map;

/** A cohort for metrics: its member ClusterQueues (sorted), summed nominal quota and usage. */
public record CohortStatus(String name, List<String> clusterQueues, Map<FlavorResource, Long> nominalQuota,
                           Map<FlavorResource, Long> usage) {
}
