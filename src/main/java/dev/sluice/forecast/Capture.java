package dev.sluice.forecast;

import dev.sluice.engine.AdmissionCheckSpec;
import dev.sluice.engine.AdmissionFairSharing;
import dev.sluice.engine.Assignment;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.FairSharing;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import java.util.List;
import java.util.Map;

/**
 * What a forecast starts from, copied out of the live state in one short look (references to immutable specs, no
 * engine work): queue objects in engine form (Cohort objects included), the fair-sharing settings and each
 * LocalQueue's admission-fair-sharing books, each workload's engine form and phase, the estimates, each
 * waiting workload's ClusterQueue and position, and the AdmissionCheck objects (whether each is Active).
 */
public record Capture(long nowMillis, List<FlavorSpec> flavors, Map<String, Map<String, String>> namespaces,
        List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues, List<Admitted> admitted,
        List<WorkloadSpec> waiting, Map<WorkloadKey, Forecast> positions, Map<WorkloadKey, Estimate> estimates,
        List<CohortSpec> cohorts, FairSharing fairSharing, AdmissionFairSharing admissionFairSharing,
        List<LocalQueueBooks> localQueueUsage, List<AdmissionCheckSpec> admissionChecks) {

    /** Without AdmissionCheck objects (a ClusterQueue naming a check is inactive in the copy). */
    public Capture(long nowMillis, List<FlavorSpec> flavors, Map<String, Map<String, String>> namespaces,
            List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues, List<Admitted> admitted,
            List<WorkloadSpec> waiting, Map<WorkloadKey, Forecast> positions, Map<WorkloadKey, Estimate> estimates,
            List<CohortSpec> cohorts, FairSharing fairSharing, AdmissionFairSharing admissionFairSharing,
            List<LocalQueueBooks> localQueueUsage) {
        this(nowMillis, flavors, namespaces, clusterQueues, localQueues, admitted, waiting, positions, estimates,
                cohorts, fairSharing, admissionFairSharing, localQueueUsage, List.of());
    }

    /** Without Cohort objects, fair sharing or admission fair sharing (flat cohorts named by string). */
    public Capture(long nowMillis, List<FlavorSpec> flavors, Map<String, Map<String, String>> namespaces,
            List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues, List<Admitted> admitted,
            List<WorkloadSpec> waiting, Map<WorkloadKey, Forecast> positions, Map<WorkloadKey, Estimate> estimates) {
        this(nowMillis, flavors, namespaces, clusterQueues, localQueues, admitted, waiting, positions, estimates,
                List.of(), FairSharing.OFF, AdmissionFairSharing.OFF, List.of());
    }

    /** Admission fair sharing's books of one LocalQueue in the live engine, so the copy orders as the leader does. */
    public record LocalQueueBooks(String namespace, String name, Map<String, Double> consumed,
            Map<String, Double> penalty, long lastUpdateMillis) {
    }

    /** A workload holding quota: since when, with what. */
    public record Admitted(WorkloadSpec spec, Assignment assignment, long admittedAtMillis) {
    }
}
