package dev.sluice.controller.tas;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Pods the ungater patched whose ungating its cache has not shown yet, per Workload (Kueue's expectations store in
 * the topology ungater): until they all show, the Workload is not planned again, since a plan made on the cache's
 * older copy would see those pods still gated and could send another pod to their domains. Thread-safe.
 */
final class UngateExpectations {
    private final Map<String, Set<String>> pending = new HashMap<>();

    synchronized void expect(String workload, String uid) {
        pending.computeIfAbsent(workload, k -> new HashSet<>()).add(uid);
    }

    /** The cache shows the pod ungated, or gone; or the patch failed (no event will show it). */
    synchronized void observed(String workload, String uid) {
        Set<String> uids = pending.get(workload);
        if (uids != null && uids.remove(uid) && uids.isEmpty()) {
            pending.remove(workload);
        }
    }

    synchronized boolean satisfied(String workload) {
        return !pending.containsKey(workload);
    }

    synchronized void forget(String workload) {
        pending.remove(workload);
    }
}
