package dev.sluice.bridge;

import dev.sluice.api.v1beta2.AdmissionFairSharingStatus;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.engine.Engine;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

/**
 * A LocalQueue's status.fairSharing.admissionFairSharingStatus read back into the engine's books: Kueue v0.19 seeds
 * a LocalQueue's usage from this persisted status when it (re)starts, so a new leader, a standby's copy and the
 * leader order LocalQueues from the same history instead of from zero. Entry penalties are not persisted (Kueue's
 * neither); a status that cannot be read is ignored (the LocalQueue starts from zero, as without a status).
 */
public final class RecordedLocalQueueUsage {

    private RecordedLocalQueueUsage() {
    }

    /**
     * Seeds the engine's books for this (already upserted) LocalQueue from its status, with the sample's own time:
     * an engine copy then samples when the leader does.
     */
    public static void restore(Engine engine, LocalQueue lq) {
        restore(engine, lq, null);
    }

    /**
     * As {@link #restore(Engine, LocalQueue)}, but the books count as sampled at {@code sampledAtMillis}: a new
     * leader, as Kueue's LocalQueue reconciler seeds with LastUpdate = now, so the first sample after a restart
     * folds in no live usage over the time nobody sampled.
     */
    public static void restore(Engine engine, LocalQueue lq, Long sampledAtMillis) {
        AdmissionFairSharingStatus afs = lq.getStatus() == null || lq.getStatus().getFairSharing() == null ? null
                : lq.getStatus().getFairSharing().getAdmissionFairSharingStatus();
        if (afs == null || afs.getLastUpdate() == null) {
            return;
        }
        long lastUpdate;
        try {
            lastUpdate = Instant.parse(afs.getLastUpdate()).toEpochMilli();
        } catch (DateTimeParseException unreadable) {
            return;
        }
        Map<String, Double> consumed = new TreeMap<>();
        if (afs.getConsumedResources() != null) {
            try {
                afs.getConsumedResources().forEach((resource, amount) -> {
                    if (amount != null) {
                        consumed.put(resource, amount.getNumericalAmount().doubleValue());
                    }
                });
            } catch (ArithmeticException | IllegalArgumentException unreadable) {
                return;
            }
        }
        engine.restoreLocalQueueUsage(lq.getMetadata().getNamespace(), lq.getMetadata().getName(), consumed, Map.of(),
                sampledAtMillis == null ? lastUpdate : sampledAtMillis);
    }
}
