package dev.sluice.engine;

import java.util.List;

/** What one admission cycle decided; pending holds only workloads whose pending status changed. */
public record CycleResult(List<Admission> admissions, List<Eviction> evictions, List<PendingStatus> pending) {
    public CycleResult {
        admissions = List.copyOf(admissions);
        evictions = List.copyOf(evictions);
        pending = List.copyOf(pending);
    }

    public boolean isEmpty() {
        return admissions.isEmpty() && evictions.isEmpty() && pending.isEmpty();
    }
}
