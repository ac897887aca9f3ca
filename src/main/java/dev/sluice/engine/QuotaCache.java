package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Kueue's cache: the flavors, and per ClusterQueue and cohort the quota and the usage held by admitted
 * workloads. Taking and giving back quota goes through here, so a cohort's sums never drift from its members.
 */
final class QuotaCache {
    final TreeMap<String, FlavorSpec> flavors = new TreeMap<>();
    final TreeMap<String, ClusterQueueState> clusterQueues = new TreeMap<>();
    final TreeMap<String, CohortState> cohorts = new TreeMap<>();

    ClusterQueueState get(String name) {
        return clusterQueues.get(name);
    }

    ClusterQueueState getOrCreate(String name) {
        return clusterQueues.computeIfAbsent(name, ClusterQueueState::new);
    }

    /** Installs a (new or changed) spec: the queue leaves its old cohort and joins the one it names. */
    void setSpec(ClusterQueueState cq, ClusterQueueSpec spec) {
        leaveCohort(cq);
        cq.setSpec(spec);
        cq.checkFlavors(flavors);
        if (spec != null && spec.cohort() != null) {
            CohortState cohort = cohorts.computeIfAbsent(spec.cohort(), CohortState::new);
            cohort.members.put(cq.name, cq);
            cq.cohort = cohort;
            cohort.recompute();
        }
    }

    private void leaveCohort(ClusterQueueState cq) {
        CohortState old = cq.cohort;
        if (old == null) {
            return;
        }
        old.members.remove(cq.name);
        cq.cohort = null;
        old.recompute();
        for (ClusterQueueState m : old.members.values()) {
            wakeQueue(m);
        }
        if (old.members.isEmpty()) {
            cohorts.remove(old.name);
        }
    }

    /** A deleted queue is forgotten once it holds nothing and nothing waits in it. */
    void dropIfEmpty(ClusterQueueState cq) {
        if (!cq.exists() && cq.admitted.isEmpty() && cq.queue.size() == 0) {
            clusterQueues.remove(cq.name);
        }
    }

    /** The workload takes its assignment's quota in cq. */
    void hold(WorkloadRecord r, ClusterQueueState cq, Assignment assignment, long now) {
        r.phase = WorkloadPhase.ADMITTED;
        r.clusterQueue = cq.name;
        r.assignment = assignment;
        r.usage = assignment.usage();
        r.admittedAt = now;
        r.reportedReason = null;
        r.reportedMessage = null;
        r.evicted = false;
        cq.admit(r);
        cq.addUsage(r.usage);
    }

    /** The workload gives its quota back; the cohort's parked workloads get another try. */
    void release(WorkloadRecord r) {
        ClusterQueueState cq = clusterQueues.get(r.clusterQueue);
        cq.removeUsage(r.usage);
        cq.unadmit(r);
        r.assignment = null;
        r.usage = Map.of();
        r.admittedAt = null;
        r.clusterQueue = null;
        wake(cq);
        dropIfEmpty(cq);
    }

    /** Quota came free or the queue changed: parked workloads of the whole cohort get another try. */
    void wake(ClusterQueueState cq) {
        if (cq.cohort == null) {
            wakeQueue(cq);
            return;
        }
        for (ClusterQueueState m : cq.cohort.members.values()) {
            wakeQueue(m);
        }
    }

    void wakeAll() {
        for (ClusterQueueState cq : clusterQueues.values()) {
            wakeQueue(cq);
        }
    }

    static void wakeQueue(ClusterQueueState cq) {
        cq.waitingForPreemption = null;
        cq.queue.wakeParked();
    }

    List<String> clusterQueueNames() {
        List<String> out = new ArrayList<>();
        for (ClusterQueueState cq : clusterQueues.values()) {
            if (cq.exists()) {
                out.add(cq.name);
            }
        }
        return out;
    }

    List<String> cohortNames() {
        return List.copyOf(cohorts.keySet());
    }

    Optional<CohortStatus> cohortStatus(String cohort) {
        CohortState c = cohorts.get(cohort);
        return c == null ? Optional.empty() : Optional.of(c.status());
    }

    /** For tests: the ClusterQueues whose candidate order or woken-shape book disagrees with their workloads. */
    List<String> staleIndexes() {
        List<String> out = new ArrayList<>();
        for (ClusterQueueState cq : clusterQueues.values()) {
            if (!cq.victimOrderConsistent() || !cq.queue.awakeConsistent()) {
                out.add(cq.name);
            }
        }
        return out;
    }
}
