package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Kueue's cache: the flavors, and per ClusterQueue and cohort the quota and the usage held by admitted
 * workloads, as a tree of cohorts. Taking and giving back quota goes through here, so no level's sums drift.
 */
final class QuotaCache {
    final FairSharing fairSharing;
    final TreeMap<String, FlavorSpec> flavors = new TreeMap<>();
    /** The AdmissionCheck objects there are, by name. */
    final TreeMap<String, AdmissionCheckSpec> admissionChecks = new TreeMap<>();
    final TreeMap<String, ClusterQueueState> clusterQueues = new TreeMap<>();
    final TreeMap<String, CohortState> cohorts = new TreeMap<>();
    /** Topologies, nodes and the TAS usage of admitted workloads (topology-aware scheduling). */
    final TasState tas = new TasState(flavors);
    /** Told when a relink makes a queue active or inactive (its waiting workloads' statuses change). */
    java.util.function.BiConsumer<ClusterQueueState, Boolean> activityChanged = (cq, wasActive) -> { };

    QuotaCache(FairSharing fairSharing) {
        this.fairSharing = fairSharing == null ? FairSharing.OFF : fairSharing;
    }

    ClusterQueueState get(String name) {
        return clusterQueues.get(name);
    }

    ClusterQueueState getOrCreate(String name) {
        return clusterQueues.computeIfAbsent(name, ClusterQueueState::new);
    }

    /** Installs a (new or changed) spec: the queue leaves its old cohort and joins the one it names. */
    void setSpec(ClusterQueueState cq, ClusterQueueSpec spec) {
        CohortState old = cq.parent;
        if (old != null) {
            old.members.remove(cq.name);
            cq.parent = null;
        }
        cq.setSpec(spec);
        cq.checkFlavors(flavors);
        cq.checkAdmissionChecks(admissionChecks);
        if (spec != null && spec.cohort() != null) {
            CohortState cohort = cohorts.get(spec.cohort());
            if (cohort == null) {
                cohort = new CohortState(spec.cohort());
                cohorts.put(cohort.name, cohort);
            }
            cohort.members.put(cq.name, cq);
            cq.parent = cohort;
            cq.cohortCycle = cohort.cycle;
            recomputeTree(cohort);
        } else {
            cq.cohortCycle = null;
        }
        if (old != null) {
            if (old.spec == null && old.isEmpty()) {
                removeCohort(old);
            } else {
                recomputeTree(old);
                ((CohortState) old.root()).forEachQueue(QuotaCache::wakeQueue);
            }
        }
    }

    /** A Cohort object was created or changed. */
    void upsertCohort(CohortSpec spec) {
        CohortState c = cohorts.get(spec.name());
        if (c == null) {
            c = new CohortState(spec.name());
            cohorts.put(c.name, c);
        }
        c.setSpec(spec);
        relink();
    }

    /** A Cohort object went away: named by its members still, it stays as an implicit cohort (no quota). */
    void deleteCohort(String name) {
        CohortState c = cohorts.get(name);
        if (c == null || c.spec == null) {
            return;
        }
        c.setSpec(null);
        if (c.isEmpty()) {
            cohorts.remove(name);
        }
        relink();
    }

    /** An implicit cohort nothing names any more (it has no parent: implicit cohorts have none). */
    private void removeCohort(CohortState c) {
        cohorts.remove(c.name);
    }

    /**
     * Rebuilds the tree's links from the specs (rare: a Cohort changed, or a queue joined another tree): creates
     * the implicit parents named, finds parent cycles (every queue under one is inactive; a cohort in or under a
     * cycle keeps no parent, so usage never climbs round it), and recomputes every tree's sums.
     */
    void relink() {
        for (CohortState c : new java.util.ArrayList<>(cohorts.values())) {
            String p = c.declaredParent();
            if (p != null && !cohorts.containsKey(p)) {
                cohorts.put(p, new CohortState(p));
            }
        }
        // Implicit cohorts nothing names any more are dropped.
        java.util.Set<String> named = new java.util.HashSet<>();
        for (CohortState c : cohorts.values()) {
            if (c.declaredParent() != null) {
                named.add(c.declaredParent());
            }
        }
        cohorts.values().removeIf(c -> c.spec == null && c.members.isEmpty() && !named.contains(c.name));
        for (CohortState c : cohorts.values()) {
            c.childCohorts.clear();
            c.parent = null;
            c.cycle = cycleFrom(c);
        }
        for (CohortState c : cohorts.values()) {
            String p = c.declaredParent();
            if (p != null && c.cycle == null) {
                c.parent = cohorts.get(p);
                c.parent.childCohorts.put(c.name, c);
            }
        }
        for (CohortState c : cohorts.values()) {
            for (ClusterQueueState cq : c.members.values()) {
                boolean wasActive = cq.isActive();
                cq.parent = c;
                cq.cohortCycle = c.cycle;
                if (wasActive != cq.isActive()) {
                    activityChanged.accept(cq, wasActive);
                }
            }
        }
        for (CohortState c : cohorts.values()) {
            if (c.parent == null) {
                c.recompute();
            }
        }
        wakeAll();
    }

    /** The cycle of parents reached from c (names, starting where it closes), or null if the chain ends. */
    private List<String> cycleFrom(CohortState c) {
        List<String> chain = new ArrayList<>();
        String n = c.name;
        while (n != null) {
            int at = chain.indexOf(n);
            if (at >= 0) {
                List<String> cycle = new ArrayList<>(chain.subList(at, chain.size()));
                cycle.add(n);
                return List.copyOf(cycle);
            }
            chain.add(n);
            CohortState s = cohorts.get(n);
            n = s == null ? null : s.declaredParent();
        }
        return null;
    }

    /** Recomputes the sums of the tree holding node (cheap next to a relink: one tree). */
    private void recomputeTree(CohortState node) {
        QuotaNode root = node.root();
        if (root instanceof CohortState c) {
            c.recompute();
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
        r.checks.clear();
        r.reportedReason = null;
        r.reportedUnadmitted = null;
        r.unadmittedReason = null;
        r.reportedMessage = null;
        r.evicted = false;
        r.preempted = false;
        if (cq.stickyPreemptor == r) {
            cq.stickyPreemptor = null;
        }
        cq.admit(r);
        cq.addUsage(r.usage);
        tas.book(r.key(), assignment, r.spec);
    }

    /** The workload gives its quota back; the cohort's parked workloads get another try. */
    void release(WorkloadRecord r) {
        ClusterQueueState cq = clusterQueues.get(r.clusterQueue);
        cq.removeUsage(r.usage);
        cq.unadmit(r);
        tas.unbook(r.key());
        r.assignment = null;
        r.usage = Map.of();
        r.admittedAt = null;
        r.clusterQueue = null;
        r.checks.clear();
        wake(cq);
        dropIfEmpty(cq);
    }

    /** Quota came free or the queue changed: parked workloads of the whole cohort get another try. */
    void wake(ClusterQueueState cq) {
        if (cq.parent == null) {
            wakeQueue(cq);
            return;
        }
        ((CohortState) cq.root()).forEachQueue(QuotaCache::wakeQueue);
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
