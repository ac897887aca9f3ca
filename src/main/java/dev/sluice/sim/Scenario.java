package dev.sluice.sim;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import java.util.List;
import java.util.Map;

/**
 * Everything a simulation starts from: queue objects, namespaces and workloads in creation order, and the Cohort
 * objects of the input (v1beta2; the simulation maps them onto the engine's cohort tree).
 */
public record Scenario(List<FlavorSpec> flavors, List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
                       Map<String, Map<String, String>> namespaces, List<SimWorkload> workloads,
                       List<dev.sluice.api.v1beta2.Cohort> cohorts) {

    public Scenario {
        flavors = List.copyOf(flavors);
        clusterQueues = List.copyOf(clusterQueues);
        localQueues = List.copyOf(localQueues);
        namespaces = Map.copyOf(namespaces);
        workloads = List.copyOf(workloads);
        cohorts = List.copyOf(cohorts);
    }
}
