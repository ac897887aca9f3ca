package dev.sluice.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The admission engine's facade: events in, decisions out. Not thread-safe (one caller thread); deterministic
 * (the same calls give the same results): decisions never depend on hash iteration order.
 *
 * <p>Its rooms, as Kueue's scheduler divides them: {@link QuotaCache} (quota and usage per ClusterQueue and
 * cohort), {@link QueueManager} (LocalQueues, workloads, routing), {@link SchedulingCycle} (one cycle),
 * {@link FlavorAssigner} (flavors per pod set), {@link Preemptor} (victims), {@link StatusViews} (what is shown).
 */
public final class Engine {
    private final QuotaCache cache;
    private final StatusBook statuses = new StatusBook();
    private final QueueManager queues;
    private final Evictions evictions;
    private final StatusViews views;
    private final SchedulingCycle cycle;
    private final LocalQueueUsage localQueueUsage;

    public Engine() {
        this(true, FairSharing.OFF);
    }

    /** An engine with Kueue's fairSharing configuration (FairSharing.OFF: classical preemption and order). */
    public Engine(FairSharing fairSharing) {
        this(true, fairSharing);
    }

    Engine(boolean shortcuts) {
        this(shortcuts, FairSharing.OFF);
    }

    /** With shortcuts false, every preemption question runs the full victim search (reference for tests). */
    Engine(boolean shortcuts, FairSharing fairSharing) {
        this(shortcuts, fairSharing, AdmissionFairSharing.OFF);
    }

    /**
     * An engine with Kueue's fairSharing and admissionFairSharing configurations (AdmissionFairSharing.OFF: heads
     * in the usual priority/timestamp order in every ClusterQueue).
     */
    public Engine(FairSharing fairSharing, AdmissionFairSharing admissionFairSharing) {
        this(true, fairSharing, admissionFairSharing);
    }

    Engine(boolean shortcuts, FairSharing fairSharing, AdmissionFairSharing admissionFairSharing) {
        Objects.requireNonNull(admissionFairSharing, "admissionFairSharing (AdmissionFairSharing.OFF for none)");
        this.cache = new QuotaCache(fairSharing);
        this.queues = new QueueManager(cache, statuses);
        this.evictions = new Evictions(cache);
        this.views = new StatusViews(cache, queues);
        this.localQueueUsage = new LocalQueueUsage(admissionFairSharing, queues);
        this.cycle = new SchedulingCycle(cache, queues, statuses, evictions, shortcuts, localQueueUsage);
        cache.activityChanged = queues::activityChanged;
    }

    // ---- queue objects ----

    public void upsertFlavor(FlavorSpec flavor) {
        Objects.requireNonNull(flavor, "flavor");
        if (flavor.equals(cache.flavors.get(flavor.name()))) {
            return; // e.g. only the object's metadata changed: nothing to wake
        }
        cache.flavors.put(flavor.name(), flavor);
        flavorsChanged();
    }

    public void deleteFlavor(String name) {
        if (cache.flavors.remove(name) != null) {
            flavorsChanged();
        }
    }

    /** A Kueue Topology object (its levels); flavors naming it by topologyName become TAS flavors. */
    public void upsertTopology(dev.sluice.engine.tas.Topology topology) {
        Objects.requireNonNull(topology, "topology");
        cache.tas.upsertTopology(topology);
        flavorsChanged();
    }

    public void deleteTopology(String name) {
        cache.tas.deleteTopology(name);
        flavorsChanged();
    }

    /**
     * The cluster's nodes as TAS sees them, and per node the usage of pods not admitted through TAS (each pod's
     * requests plus 1000 milli of {@code pods}); waiting workloads get another try.
     */
    public void setNodes(List<dev.sluice.engine.tas.TasNode> nodes, Map<String, Map<String, Long>> nonTasUsagePerNode) {
        Objects.requireNonNull(nodes, "nodes");
        cache.tas.setNodes(nodes, nonTasUsagePerNode);
        cache.wakeAll();
    }

    private void flavorsChanged() {
        cache.tas.flavorsChanged();
        for (ClusterQueueState cq : cache.clusterQueues.values()) {
            boolean wasActive = cq.isActive();
            cq.checkFlavors(cache.flavors);
            queues.activityChanged(cq, wasActive);
            QuotaCache.wakeQueue(cq);
        }
    }

    /** An AdmissionCheck object (its controller and whether it is Active): queues naming it may change activity. */
    public void upsertAdmissionCheck(AdmissionCheckSpec check) {
        Objects.requireNonNull(check, "admission check");
        if (check.equals(cache.admissionChecks.get(check.name()))) {
            return;
        }
        cache.admissionChecks.put(check.name(), check);
        admissionChecksChanged();
    }

    public void deleteAdmissionCheck(String name) {
        if (cache.admissionChecks.remove(name) != null) {
            admissionChecksChanged();
        }
    }

    private void admissionChecksChanged() {
        for (ClusterQueueState cq : cache.clusterQueues.values()) {
            boolean wasActive = cq.isActive();
            cq.checkAdmissionChecks(cache.admissionChecks);
            if (wasActive != cq.isActive()) {
                queues.activityChanged(cq, wasActive);
                QuotaCache.wakeQueue(cq);
            }
        }
    }

    public void upsertClusterQueue(ClusterQueueSpec spec) {
        Objects.requireNonNull(spec, "ClusterQueue");
        validate(spec);
        ClusterQueueState existing = cache.get(spec.name());
        if (existing != null && spec.equals(existing.spec)) {
            return; // e.g. a status write: waking the cohort's parked workloads would only try them again
        }
        ClusterQueueState cq = cache.getOrCreate(spec.name());
        boolean existed = cq.exists();
        boolean wasActive = cq.isActive();
        cache.setSpec(cq, spec);
        if (spec.stopPolicy() == StopPolicy.HoldAndDrain) {
            evictions.evictAdmitted(new ArrayList<>(cq.admitted.values()), EvictionReason.ClusterQueueStopped,
                    "The ClusterQueue is stopped");
        }
        queues.activityChanged(cq, existed && wasActive);
        cache.wake(cq);
        if (!existed) {
            queues.routeUnrouted(lq -> lq.clusterQueue().equals(spec.name()));
        }
    }

    private static void validate(ClusterQueueSpec spec) {
        Set<String> seen = new HashSet<>();
        for (ResourceGroupSpec rg : spec.resourceGroups()) {
            for (String r : rg.coveredResources()) {
                if (!seen.add(r)) {
                    throw new IllegalArgumentException("ClusterQueue " + spec.name() + ": resource " + r
                            + " is covered by more than one resource group; list it in one group only");
                }
            }
        }
    }

    public void deleteClusterQueue(String name) {
        ClusterQueueState cq = cache.get(name);
        if (cq == null || !cq.exists()) {
            return;
        }
        cache.setSpec(cq, null);
        List<WorkloadRecord> waiting = new ArrayList<>();
        cq.queue.all().forEach(waiting::add);
        for (WorkloadRecord r : waiting) {
            cq.queue.remove(r);
            queues.route(r);
        }
        cache.dropIfEmpty(cq);
    }

    /**
     * A Cohort object: its parent and its own quota (a pool for its subtree). A cohort only named by queues needs
     * none (it is implicit: no quota, no parent). A cycle of parents makes every queue under it inactive.
     */
    public void upsertCohort(CohortSpec spec) {
        Objects.requireNonNull(spec, "Cohort");
        CohortState existing = cache.cohorts.get(spec.name());
        if (existing != null && spec.equals(existing.spec)) {
            return;
        }
        cache.upsertCohort(spec);
    }

    /** The Cohort object is gone; queues naming it keep it as an implicit cohort. */
    public void deleteCohort(String name) {
        cache.deleteCohort(name);
    }

    public void upsertLocalQueue(LocalQueueSpec spec) {
        Objects.requireNonNull(spec, "LocalQueue");
        String key = QueueManager.lqKey(spec.namespace(), spec.name());
        if (spec.equals(queues.localQueues.get(key))) {
            return; // e.g. a status write: rerouting every member would cost a pass over them
        }
        queues.localQueues.put(key, spec);
        if (spec.stopPolicy() == StopPolicy.HoldAndDrain) {
            List<WorkloadRecord> members = new ArrayList<>();
            for (WorkloadKey k : queues.members(key)) {
                members.add(queues.workload(k));
            }
            evictions.evictAdmitted(members, EvictionReason.LocalQueueStopped, "The LocalQueue is stopped");
        }
        queues.rerouteMembers(key);
    }

    public void deleteLocalQueue(String namespace, String name) {
        String key = QueueManager.lqKey(namespace, name);
        if (queues.localQueues.remove(key) != null) {
            queues.rerouteMembers(key);
        }
    }

    public void upsertNamespace(String name, Map<String, String> labels) {
        if (queues.putNamespace(name, labels)) {
            cache.wakeAll();
        }
    }

    public void deleteNamespace(String name) {
        if (queues.removeNamespace(name)) {
            cache.wakeAll();
        }
    }

    // ---- workloads ----

    /** Adds or updates a pending workload; for an admitted one only active=false matters (evicts it). */
    public void submit(WorkloadSpec workload) {
        Objects.requireNonNull(workload, "workload");
        validate(workload);
        WorkloadRecord r = queues.workload(workload.key());
        if (r == null) {
            r = new WorkloadRecord(workload);
            queues.workloads.put(workload.key(), r);
            queues.addMember(r);
            queues.route(r);
            return;
        }
        if (r.phase == WorkloadPhase.ADMITTED || r.phase == WorkloadPhase.EVICTING) {
            if (!workload.active() && r.spec.active()) {
                WorkloadSpec s = r.spec;
                r.setSpec(new WorkloadSpec(s.key(), s.uid(), s.queueName(), s.priority(),
                        s.creationTimeMillis(), s.podSets(), false));
                if (r.phase == WorkloadPhase.ADMITTED) {
                    evictions.evict(r, EvictionReason.InactiveWorkload, null, null, "The workload is deactivated");
                }
            }
            return;
        }
        queues.unqueue(r);
        queues.removeMember(r);
        r.setSpec(workload);
        if (!r.evicted) {
            r.queueTime = workload.creationTimeMillis();
        }
        queues.addMember(r);
        queues.route(r);
    }

    private static void validate(WorkloadSpec w) {
        Set<String> names = new HashSet<>();
        for (PodSetSpec ps : w.podSets()) {
            if (!names.add(ps.name())) {
                throw new IllegalArgumentException("workload " + w.key() + ": pod set name " + ps.name()
                        + " is used twice; pod set names must be unique");
            }
        }
    }

    /** At restart, before any schedule: counts an already-admitted workload's usage, even beyond quota. */
    public void restoreAdmitted(WorkloadSpec workload, Assignment assignment, long admittedAtMillis) {
        restoreAdmitted(workload, assignment, admittedAtMillis, Map.of());
    }

    /**
     * As {@link #restoreAdmitted(WorkloadSpec, Assignment, long)}, with the states of the admission checks its
     * reservation recorded (status.admissionChecks): it is admitted only once every one is Ready.
     */
    public void restoreAdmitted(WorkloadSpec workload, Assignment assignment, long admittedAtMillis,
            Map<String, CheckState> checks) {
        Objects.requireNonNull(checks, "checks");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(assignment, "assignment");
        WorkloadRecord r = queues.workload(workload.key());
        if (r != null) {
            forget(r);
        }
        r = new WorkloadRecord(workload);
        queues.workloads.put(workload.key(), r);
        queues.addMember(r);
        cache.hold(r, cache.getOrCreate(assignment.clusterQueue()), assignment, admittedAtMillis);
        r.checks.putAll(checks);
    }

    /**
     * The admission checks a workload needs now, sorted, as Kueue's AdmissionChecksForWorkload: holding quota, those of
     * its ClusterQueue's current spec that apply to its assigned flavors; waiting in a ClusterQueue, those that apply
     * to all of that queue's flavors; else none. A check removed from the queue is no longer needed; one added is, as
     * Kueue's workload controller syncs status.admissionChecks with the queue.
     */
    public List<String> admissionChecksFor(WorkloadKey key) {
        WorkloadRecord r = queues.workload(key);
        if (r == null) {
            return List.of();
        }
        if (r.assignment == null) {
            ClusterQueueState waitingIn = r.clusterQueue == null ? null : cache.get(r.clusterQueue);
            return waitingIn == null ? List.of() : AdmissionChecks.forEveryFlavor(waitingIn.spec);
        }
        ClusterQueueState cq = cache.get(r.assignment.clusterQueue());
        return AdmissionChecks.forAssignment(cq == null ? null : cq.spec, r.assignment);
    }

    /**
     * What the Workload's status.admissionChecks says now, for a workload holding quota (ignored otherwise): the
     * engine keeps the states, and the workload counts as admitted once every one is Ready. A Retry or Rejected state
     * changes nothing here: the caller evicts ({@link #evict}, reason AdmissionCheck) or deactivates it.
     */
    public void setAdmissionCheckStates(WorkloadKey key, Map<String, CheckState> checks) {
        Objects.requireNonNull(checks, "checks");
        WorkloadRecord r = queues.workload(key);
        if (r == null || (r.phase != WorkloadPhase.ADMITTED && r.phase != WorkloadPhase.EVICTING)) {
            return;
        }
        r.checks.clear();
        r.checks.putAll(checks);
    }

    /**
     * Kueue's second pass after a node failure (TASFailedNodeReplacement): each pod set of the admitted workload that
     * the topology assignment put on {@code unhealthyNode} gets a replacement on the nodes as they are now
     * ({@link dev.sluice.engine.tas.NodeReplacement}), stopping at the first that finds none. When all are found the
     * workload keeps its quota and the new assignments count on the nodes from now on; the caller writes them (or,
     * when one was not found, evicts as Kueue's TASFailedNodeReplacementFailFast does). Empty when the workload is not
     * admitted or has no pod set on the node.
     */
    public Map<String, dev.sluice.engine.tas.NodeReplacement.Result> replaceNode(WorkloadKey key, String unhealthyNode) {
        WorkloadRecord r = queues.workload(key);
        if (r == null || r.phase != WorkloadPhase.ADMITTED || r.assignment == null) {
            return Map.of();
        }
        Map<String, dev.sluice.engine.tas.NodeReplacement.Result> out = new java.util.LinkedHashMap<>();
        List<PodSetAssignment> next = new ArrayList<>();
        for (PodSetAssignment psa : r.assignment.podSets()) {
            var ta = psa.topologyAssignment();
            String flavor = ta == null ? null : cache.tas.tasFlavorOf(psa);
            PodSetSpec ps = TasState.podSet(r.spec, psa.name());
            boolean onNode = ta != null && ta.domains().stream()
                    .anyMatch(d -> d.values().get(d.values().size() - 1).equals(unhealthyNode));
            var snapshot = flavor == null || ps == null || !onNode ? null : cache.tas.snapshot(flavor);
            if (snapshot == null) {
                next.add(psa);
                continue;
            }
            var request = new dev.sluice.engine.tas.TasPodSetRequest(ps.name(), psa.count(), ps.requestsPerPod(),
                    TasPlacement.explicit(ps) ? ps.topologyRequest() : null, ps.nodeSelector(), ps.requiredNodeAffinity(),
                    ps.tolerations());
            var result = dev.sluice.engine.tas.NodeReplacement.find(snapshot, request, ta, unhealthyNode);
            out.put(psa.name(), result);
            if (!result.found()) {
                return out;
            }
            next.add(psa.withTopologyAssignment(result.assignment()));
        }
        if (!out.isEmpty()) {
            r.assignment = new Assignment(r.assignment.clusterQueue(), next);
            cache.tas.book(key, r.assignment, r.spec);
        }
        return out;
    }

    /** The caller stopped an evicted workload: release its quota and requeue it (unless deleted or inactive). */
    public void evictionDone(WorkloadKey key, long nowMillis) {
        evictions.advance(nowMillis);
        WorkloadRecord r = queues.workload(key);
        if (r == null || r.phase != WorkloadPhase.EVICTING) {
            return;
        }
        cache.release(r);
        r.phase = WorkloadPhase.PENDING;
        queues.route(r);
    }

    /**
     * The caller evicts an admitted workload for a reason of its own (its pods were not ready in time): from now on it
     * is EVICTING, as after a preemption. Returns the decision to apply, or null when the workload is not admitted.
     */
    public Eviction evict(WorkloadKey key, EvictionReason reason, String message, long nowMillis) {
        evictions.advance(nowMillis);
        WorkloadRecord r = queues.workload(key);
        if (r == null || r.phase != WorkloadPhase.ADMITTED) {
            return null;
        }
        evictions.evict(r, reason, null, null, message);
        List<Eviction> queued = evictions.drain();
        Eviction mine = queued.remove(queued.size() - 1);
        evictions.requeueAll(queued);
        return mine;
    }

    /** Evictions decided outside a cycle (queue stopped, workload deactivated), without admitting anything. */
    public List<Eviction> drainEvictions() {
        return evictions.drain();
    }

    /** The workload finished (success or failure): release its quota and forget it. */
    public void finish(WorkloadKey key) {
        WorkloadRecord r = queues.workload(key);
        if (r != null) {
            forget(r);
        }
    }

    /** The workload is gone: forget it, releasing its quota at once if admitted. */
    public void delete(WorkloadKey key) {
        finish(key);
    }

    private void forget(WorkloadRecord r) {
        if (r.phase == WorkloadPhase.ADMITTED || r.phase == WorkloadPhase.EVICTING) {
            cache.release(r);
        } else {
            queues.unqueue(r);
        }
        queues.removeMember(r);
        queues.workloads.remove(r.key());
        statuses.forget(r.key());
    }

    // ---- decisions ----

    /** One admission cycle. Callers loop while the result has admissions or evictions. */
    public CycleResult schedule(long nowMillis) {
        return schedule(nowMillis, Integer.MAX_VALUE);
    }

    /** One admission cycle admitting at most {@code maxAdmissions} (waitForPodsReady.blockAdmission). */
    public CycleResult schedule(long nowMillis, int maxAdmissions) {
        evictions.advance(nowMillis);
        localQueueUsage.sample(nowMillis);
        List<Admission> admissions = cycle.run(nowMillis, maxAdmissions);
        List<PendingStatus> pending = statuses.drain(queues.workloads);
        return new CycleResult(admissions, evictions.drain(), pending);
    }

    // ---- queries ----

    /** Status of a ClusterQueue, or null if no such queue exists. */
    public ClusterQueueStatus clusterQueueStatus(String name) {
        return views.clusterQueue(name);
    }

    /** Status of a LocalQueue, or null if no such queue exists. */
    public LocalQueueStatus localQueueStatus(String namespace, String name) {
        return views.localQueue(namespace, name);
    }

    /** Status of every LocalQueue, keyed "namespace/name": one pass over the members, for the status writer. */
    public Map<String, LocalQueueStatus> localQueueStatuses() {
        return views.localQueues();
    }

    /** What a count of waiting workloads needs of each, see {@link #forEachWaiting}. */
    @FunctionalInterface
    public interface WaitingVisitor {
        /**
         * One workload waiting in a ClusterQueue's queue: its LocalQueue name, {@code spec.active}, its granular
         * reason (null until the engine gave one) and whether it counts as inadmissible, as {@link #workload} says.
         */
        void visit(String clusterQueue, WorkloadKey key, String queueName, boolean active, UnadmittedReason reason,
                boolean inadmissible);
    }

    /**
     * Every workload waiting in a ClusterQueue's queue, once, in no order a caller may rely on: what the gauges count,
     * in one walk of the queues, without a view per workload ({@link #workload}) or a queue's sorted order
     * ({@link #pendingOrder}). Workloads waiting in no queue are {@link #unqueuedWorkloads}. Read-only.
     */
    public void forEachWaiting(WaitingVisitor visitor) {
        for (String name : cache.clusterQueueNames()) {
            ClusterQueueState cq = cache.get(name);
            if (cq == null || !cq.exists()) {
                continue;
            }
            cq.queue.forEachWaiting((r, parked) -> {
                boolean waiting = r.phase == WorkloadPhase.PENDING || r.phase == WorkloadPhase.INADMISSIBLE;
                boolean inadmissible = r.phase == WorkloadPhase.INADMISSIBLE || r.phase == WorkloadPhase.PENDING
                        && (r.reportedReason == PendingReason.Inadmissible || parked);
                visitor.visit(name, r.spec.key(), r.spec.queueName(), r.spec.active(), waiting ? r.unadmittedReason : null,
                        inadmissible);
            });
        }
    }

    public Optional<WorkloadState> workload(WorkloadKey key) {
        return views.workload(key);
    }

    /** For tests: the ClusterQueues whose candidate order or woken-shape book disagrees with their workloads. */
    List<String> staleIndexes() {
        return cache.staleIndexes();
    }

    /** The AdmissionCheck objects the engine knows, by name (for a copy to start from the same). */
    public List<AdmissionCheckSpec> admissionChecks() {
        return List.copyOf(cache.admissionChecks.values());
    }

    /** Names of all ClusterQueues, sorted. */
    public List<String> clusterQueueNames() {
        return cache.clusterQueueNames();
    }

    /**
     * Kueue's status.fairSharing.weightedShare of a ClusterQueue (its dominant resource share over its weight,
     * rounded up; Long.MAX_VALUE for a zero weight that borrows), or empty if no such queue.
     */
    public OptionalLong clusterQueueWeightedShare(String name) {
        ClusterQueueState cq = cache.get(name);
        return cq == null || !cq.exists() ? OptionalLong.empty()
                : OptionalLong.of(DominantResourceShare.of(cq).roundedWeightedShare());
    }

    /** As clusterQueueWeightedShare, for a cohort (a root's share is 0: it has nothing to borrow from). */
    public OptionalLong cohortWeightedShare(String name) {
        CohortState c = cache.cohorts.get(name);
        return c == null ? OptionalLong.empty() : OptionalLong.of(DominantResourceShare.of(c).roundedWeightedShare());
    }

    /** Names of all cohorts (objects, and those named by a ClusterQueue or as a parent), sorted. */
    public List<String> cohortNames() {
        return cache.cohortNames();
    }

    /** A cohort's members, nominal quota and usage (for metrics); empty if no ClusterQueue names it. */
    public Optional<CohortStatus> cohortStatus(String cohort) {
        return cache.cohortStatus(cohort);
    }

    /**
     * The pending workloads that wait in no ClusterQueue's queue (deactivated; no queue name; LocalQueue missing or
     * stopped; its ClusterQueue missing), in key order; their state says why. Read-only.
     */
    public List<WorkloadKey> unqueuedWorkloads() {
        return queues.unrouted();
    }

    /**
     * A ClusterQueue's pending workloads in the queue's own order (what it tries first comes first; set-aside ones
     * included, in their place; under admission fair sharing, by LocalQueue usage first), for the visibility API;
     * null if no such queue. Read-only.
     */
    public List<WorkloadKey> pendingOrder(String clusterQueue) {
        ClusterQueueState cq = cache.get(clusterQueue);
        if (cq == null || !cq.exists()) {
            return null;
        }
        List<WorkloadRecord> records = new ArrayList<>(cq.queue.size());
        cq.queue.all().forEach(records::add);
        if (localQueueUsage.enabled() && cq.spec != null
                && cq.spec.admissionMode() == AdmissionMode.UsageBasedAdmissionFairSharing) {
            // as the cycle takes heads: the LocalQueue of lower usage first, ties in the queue's order (a stable sort)
            records.sort(java.util.Comparator.comparingDouble(localQueueUsage::weightedUsage));
        }
        List<WorkloadKey> out = new ArrayList<>(records.size());
        records.forEach(r -> out.add(r.spec.key()));
        return out;
    }

    /**
     * Admission fair sharing: a LocalQueue's consumed resources, decayed with the half-life as of its last sample
     * (Kueue's status.fairSharing.admissionFairSharingStatus.consumedResources; resource name -> amount in
     * Kubernetes units, cores or bytes), without the entry penalty of admissions since. Empty if admission fair
     * sharing is off or the LocalQueue was not sampled yet (samples are taken by schedule).
     */
    public Optional<Map<String, Double>> localQueueConsumedResources(String namespace, String name) {
        return Optional.ofNullable(localQueueUsage.consumed(QueueManager.lqKey(namespace, name)));
    }

    /** The engine time (ms) of the LocalQueue's last usage sample (Kueue's admissionFairSharingStatus.lastUpdate). */
    public OptionalLong localQueueUsageLastUpdate(String namespace, String name) {
        Long t = localQueueUsage.lastUpdate(QueueManager.lqKey(namespace, name));
        return t == null ? OptionalLong.empty() : OptionalLong.of(t);
    }

    /**
     * The usage admission fair sharing orders by (for kueue_local_queue_admission_fair_sharing_usage): the consumed
     * resources and entry penalties weighted by resourceWeights, over the LocalQueue's weight. Empty if admission
     * fair sharing is off or the LocalQueue was not sampled yet.
     */
    public java.util.OptionalDouble localQueueAdmissionFairSharingUsage(String namespace, String name) {
        String key = QueueManager.lqKey(namespace, name);
        return localQueueUsage.consumed(key) == null ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of(localQueueUsage.weightedUsage(key));
    }

    /**
     * Admission fair sharing: the engine time (ms) at which the next LocalQueue's usage sample is due (its last
     * sample plus usageSamplingInterval), so a caller can run {@link #schedule} then even when nothing else happens,
     * as Kueue samples on a timer. Empty while admission fair sharing is off or before any LocalQueue was sampled.
     */
    public OptionalLong nextLocalQueueUsageSampleMillis() {
        return localQueueUsage.nextSampleMillis();
    }

    /**
     * Admission fair sharing: the entry penalties a LocalQueue's admissions added since its last sample (resource
     * name -> amount in Kubernetes units), for a copy of the engine to start from the same books. Empty if admission
     * fair sharing is off or the LocalQueue was not sampled yet.
     */
    public Optional<Map<String, Double>> localQueueEntryPenalty(String namespace, String name) {
        return Optional.ofNullable(localQueueUsage.penalty(QueueManager.lqKey(namespace, name)));
    }

    /**
     * Admission fair sharing: starts an upserted LocalQueue's books from a recorded sample instead of zero (its
     * consumed resources and the engine time of that sample, plus any entry penalty not yet folded in), as Kueue
     * seeds a LocalQueue from its persisted status.fairSharing.admissionFairSharingStatus. For engine copies (a
     * standby, the forecast) and a new leader. Ignored while admission fair sharing is off or for an unknown
     * LocalQueue.
     */
    public void restoreLocalQueueUsage(String namespace, String name, Map<String, Double> consumed,
            Map<String, Double> penalty, long lastUpdateMillis) {
        localQueueUsage.restore(QueueManager.lqKey(namespace, name), consumed, penalty, lastUpdateMillis);
    }
}
