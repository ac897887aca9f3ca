package dev.sluice.sim;

import dev.sluice.engine.WorkloadKey;
import java.util.Map;

/**
 * One line of the timeline. flavors is pod set → resource → flavor (Admitted and Preempted only, else empty);
 * placements is, on Admitted, where each pod set with a topology assignment goes (else empty).
 */
public record SimEvent(long timeMillis, Type type, WorkloadKey workload, String job, String clusterQueue,
                       Map<String, Map<String, String>> flavors, String message, Map<String, Placements.PodSet> placements) {

    public SimEvent {
        placements = placements == null ? Map.of() : placements;
    }

    public SimEvent(long timeMillis, Type type, WorkloadKey workload, String job, String clusterQueue,
                    Map<String, Map<String, String>> flavors, String message) {
        this(timeMillis, type, workload, job, clusterQueue, flavors, message, Map.of());
    }

    public enum Type { Submitted, Admitted, Preempted, Evicted, Finished, Inadmissible, PodsReady, Requeued, Deactivated,
        /** PodsReady lost (Kueue's PodsReady False/WaitForRecovery): the recovery timeout runs. */
        PodsNotReady }
}
