package dev.sluice.controller.queues;

import dev.sluice.api.v1beta2.AdmissionFairSharingStatus;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueFairSharingStatus;
import dev.sluice.controller.session.Session;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * A LocalQueue's status.fairSharing.admissionFairSharingStatus from the engine's books: consumedResources (decayed,
 * in Kubernetes units) and lastUpdate (the controller's engine clock is the wall clock in ms). Null while admission
 * fair sharing is off or before the LocalQueue's first sample.
 */
final class LocalQueueFairSharingStatuses {

    private LocalQueueFairSharingStatuses() {
    }

    /** What the status is made of, for the only-on-change check (the status classes have no equals). */
    static Object books(Session s, LocalQueue lq) {
        if (!s.admissionFairSharing.enabled()) {
            return null;
        }
        String ns = lq.getMetadata().getNamespace();
        String name = lq.getMetadata().getName();
        return java.util.Arrays.asList(s.engine.localQueueUsageLastUpdate(ns, name),
                s.engine.localQueueConsumedResources(ns, name));
    }

    static LocalQueueFairSharingStatus of(Session s, LocalQueue lq) {
        if (!s.admissionFairSharing.enabled()) {
            return null;
        }
        String ns = lq.getMetadata().getNamespace();
        String name = lq.getMetadata().getName();
        var last = s.engine.localQueueUsageLastUpdate(ns, name);
        if (last.isEmpty()) {
            return null;
        }
        Map<String, Quantity> consumed = new TreeMap<>();
        s.engine.localQueueConsumedResources(ns, name).orElse(Map.of()).forEach((resource, amount) ->
                consumed.put(resource, new Quantity(new java.math.BigDecimal(amount).setScale(3, java.math.RoundingMode.HALF_UP)
                        .stripTrailingZeros().toPlainString())));
        AdmissionFairSharingStatus afs = new AdmissionFairSharingStatus();
        afs.setConsumedResources(consumed);
        afs.setLastUpdate(Instant.ofEpochMilli(last.getAsLong()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        LocalQueueFairSharingStatus out = new LocalQueueFairSharingStatus();
        out.setAdmissionFairSharingStatus(afs);
        return out;
    }

    /**
     * The LocalQueue's value for kueue_local_queue_admission_fair_sharing_usage (consumed plus entry penalties,
     * resource-weighted, over the LocalQueue's weight), as Kueue reports it at each sample: only while admission
     * fair sharing is on, once the LocalQueue was sampled, and only for a LocalQueue whose ClusterQueue is active
     * (Kueue's LocalQueue reconciler stops before sampling otherwise).
     */
    static java.util.Optional<dev.sluice.metrics.AdmissionEvents.LocalQueueFairSharingUsage> usage(Session s,
            LocalQueue lq, String clusterQueue) {
        if (!s.admissionFairSharing.enabled() || clusterQueue == null) {
            return java.util.Optional.empty();
        }
        var cq = s.engine.clusterQueueStatus(clusterQueue);
        if (cq == null || !cq.active()) {
            return java.util.Optional.empty();
        }
        String ns = lq.getMetadata().getNamespace();
        String name = lq.getMetadata().getName();
        var usage = s.engine.localQueueAdmissionFairSharingUsage(ns, name);
        return usage.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(new dev.sluice.metrics.AdmissionEvents.LocalQueueFairSharingUsage(ns, name,
                        clusterQueue, usage.getAsDouble()));
    }
}
