package dev.sluice.forecast;

import dev.sluice.engine.Assignment;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import java.util.List;
import java.util.Map;

/**
 * What a forecast starts from, copied out of the live state in one short look (references to immutable specs, no
 * engine work): queue objects in engine form, each workload's engine form and phase, the estimates, and each
 * waiting workload's ClusterQueue and position.
 */
public record Capture(long nowMillis, List<FlavorSpec> flavors, Map<String, Map<String, String>> namespaces,
        List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues, List<Admitted> admitted,
        List<WorkloadSpec> waiting, Map<WorkloadKey, Forecast> positions, Map<WorkloadKey, Estimate> estimates) {

    /** A workload holding quota: since when, with what. */
    public record Admitted(WorkloadSpec spec, Assignment assignment, long admittedAtMillis) {
    }
}
