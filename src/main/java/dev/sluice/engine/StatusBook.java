package dev.sluice.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pending statuses changed since the last cycle: a workload's reason and message are reported only when
 * they differ from what was last reported, so an unchanged wait costs no status write.
 */
final class StatusBook {
    private LinkedHashMap<WorkloadKey, PendingStatus> changed = new LinkedHashMap<>();

    void set(WorkloadRecord r, PendingReason reason, UnadmittedReason unadmitted, String message) {
        r.unadmittedReason = unadmitted;
        if (reason == r.reportedReason && unadmitted == r.reportedUnadmitted && message.equals(r.reportedMessage)) {
            r.message = r.reportedMessage; // the copy kept, not the equal one just built
            return;
        }
        // thousands of Workloads waiting for the same quota are told the same words: one String for all of them
        message = message.intern();
        r.message = message;
        r.reportedReason = reason;
        r.reportedUnadmitted = unadmitted;
        r.reportedMessage = message;
        changed.put(r.key(), new PendingStatus(r.key(), reason, message, unadmitted));
    }

    /** The workload was admitted or forgotten: whatever it last changed is no longer news. */
    void forget(WorkloadKey key) {
        changed.remove(key);
    }

    /** The changes of workloads still pending, in the order they changed; the book starts over. */
    List<PendingStatus> drain(Map<WorkloadKey, WorkloadRecord> workloads) {
        List<PendingStatus> pending = new ArrayList<>();
        for (PendingStatus s : changed.values()) {
            WorkloadRecord r = workloads.get(s.workload());
            if (r != null && r.phase == WorkloadPhase.PENDING) {
                pending.add(s);
            }
        }
        if (!changed.isEmpty()) {
            // a new map, not clear(): clearing walks the whole table, which stays as large as the biggest burst
            // (thousands of workloads queued at once), on every cycle after it
            changed = new LinkedHashMap<>();
        }
        return pending;
    }
}
