package dev.sluice.sim;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import java.util.List;
import java.util.Map;

/** Everything a simulation starts from: queue objects, namespaces and workloads in creation order. */
public record Scenario(List<FlavorSpec> flavors, List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
                       Map<String, Map<String, String>> namespaces, List<SimWorkload> workloads) {

    public Scenario {
        flavors = List.copyOf(flavors);
        clusterQueues = List.copyOf(clusterQueues);
        localQueues = List.copyOf(localQueues);
        namespaces = Map.copyOf(namespaces);
        workloads = List.copyOf(workloads);
    }
}
