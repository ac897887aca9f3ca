package dev.sluice.sim;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.engine.tas.Topology;
import java.util.List;
import java.util.Map;

/**
 * Everything a simulation starts from: queue objects, namespaces and workloads in creation order, the Cohort
 * objects of the input (v1beta2; the simulation maps them onto the engine's cohort tree), and for topology-aware
 * scheduling the Topology objects and the nodes (from Node manifests and {@code --nodes}).
 */
public record Scenario(List<FlavorSpec> flavors, List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
                       Map<String, Map<String, String>> namespaces, List<SimWorkload> workloads,
                       List<dev.sluice.api.v1beta2.Cohort> cohorts, List<Topology> topologies, List<TasNode> nodes) {

    public Scenario {
        flavors = List.copyOf(flavors);
        clusterQueues = List.copyOf(clusterQueues);
        localQueues = List.copyOf(localQueues);
        namespaces = Map.copyOf(namespaces);
        workloads = List.copyOf(workloads);
        cohorts = List.copyOf(cohorts);
        topologies = List.copyOf(topologies);
        nodes = List.copyOf(nodes);
    }

    /** A scenario without topology-aware scheduling. */
    public Scenario(List<FlavorSpec> flavors, List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
                    Map<String, Map<String, String>> namespaces, List<SimWorkload> workloads,
                    List<dev.sluice.api.v1beta2.Cohort> cohorts) {
        this(flavors, clusterQueues, localQueues, namespaces, workloads, cohorts, List.of(), List.of());
    }

    /** The Topology of this name, or null. */
    public Topology topology(String name) {
        return topologies.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }
}
