package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The admission engine: events in, decisions out. Not thread-safe (one caller thread); deterministic
 * (the same calls give the same results): decisions never depend on hash iteration order.
 */
public final class Engine {
    private final TreeMap<String, FlavorSpec> flavors = new TreeMap<>();
    private final TreeMap<String, ClusterQueueState> clusterQueues = new TreeMap<>();
    private final TreeMap<String, CohortState> cohorts = new TreeMap<>();
    private final TreeMap<String, LocalQueueSpec> localQueues = new TreeMap<>();
    private final TreeMap<String, Map<String, String>> namespaces = new TreeMap<>();
    /** Lookup only; never iterated for decisions. */
    private final HashMap<WorkloadKey, WorkloadRecord> workloads = new HashMap<>();
    /** Every known workload per LocalQueue ("namespace/name"), pending or holding quota. */
    private final TreeMap<String, TreeSet<WorkloadKey>> localQueueMembers = new TreeMap<>();
    /** Pending workloads that wait in no ClusterQueue (missing or stopped queue, inactive workload). */
    private final TreeSet<WorkloadKey> unrouted = new TreeSet<>();
    private final List<Eviction> queuedEvictions = new ArrayList<>();
    private final LinkedHashMap<WorkloadKey, PendingStatus> changedStatuses = new LinkedHashMap<>();
    private final FlavorAssigner assigner = new FlavorAssigner(flavors);
    private long lastNow;
    /** Bounds and caches that skip work without changing decisions; off only to check exactly that. */
    private final boolean shortcuts;

    public Engine() {
        this(true);
    }

    /** With shortcuts false, every preemption question runs the full victim search (reference for tests). */
    Engine(boolean shortcuts) {
        this.shortcuts = shortcuts;
    }

    // ---- queue objects ----

    public void upsertFlavor(FlavorSpec flavor) {
        Objects.requireNonNull(flavor, "flavor");
        if (flavor.equals(flavors.get(flavor.name()))) {
            return; // e.g. only the object's metadata changed: nothing to wake
        }
        flavors.put(flavor.name(), flavor);
        flavorsChanged();
    }

    public void deleteFlavor(String name) {
        if (flavors.remove(name) != null) {
            flavorsChanged();
        }
    }

    private void flavorsChanged() {
        for (ClusterQueueState cq : clusterQueues.values()) {
            boolean wasActive = cq.isActive();
            cq.checkFlavors(flavors);
            activityChanged(cq, wasActive);
            wakeQueue(cq);
        }
    }

    public void upsertClusterQueue(ClusterQueueSpec spec) {
        Objects.requireNonNull(spec, "ClusterQueue");
        validate(spec);
        ClusterQueueState existing = clusterQueues.get(spec.name());
        if (existing != null && spec.equals(existing.spec)) {
            return; // e.g. a status write: waking the cohort's parked workloads would only try them again
        }
        ClusterQueueState cq = clusterQueues.computeIfAbsent(spec.name(), ClusterQueueState::new);
        boolean existed = cq.exists();
        boolean wasActive = cq.isActive();
        leaveCohort(cq);
        cq.setSpec(spec);
        cq.checkFlavors(flavors);
        if (spec.cohort() != null) {
            CohortState cohort = cohorts.computeIfAbsent(spec.cohort(), CohortState::new);
            cohort.members.put(cq.name, cq);
            cq.cohort = cohort;
            cohort.recompute();
        }
        if (spec.stopPolicy() == StopPolicy.HoldAndDrain) {
            for (WorkloadRecord r : new ArrayList<>(cq.admitted.values())) {
                if (r.phase == WorkloadPhase.ADMITTED) {
                    evict(r, EvictionReason.ClusterQueueStopped, null, null, "The ClusterQueue is stopped");
                }
            }
        }
        activityChanged(cq, existed && wasActive);
        wake(cq);
        if (!existed) {
            routeUnrouted(lq -> lq.clusterQueue().equals(spec.name()));
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
        ClusterQueueState cq = clusterQueues.get(name);
        if (cq == null || !cq.exists()) {
            return;
        }
        leaveCohort(cq);
        cq.setSpec(null);
        List<WorkloadRecord> waiting = new ArrayList<>();
        cq.queue.all().forEach(waiting::add);
        for (WorkloadRecord r : waiting) {
            cq.queue.remove(r);
            route(r);
        }
        dropIfEmpty(cq);
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

    private void dropIfEmpty(ClusterQueueState cq) {
        if (!cq.exists() && cq.admitted.isEmpty() && cq.queue.size() == 0) {
            clusterQueues.remove(cq.name);
        }
    }

    public void upsertLocalQueue(LocalQueueSpec spec) {
        Objects.requireNonNull(spec, "LocalQueue");
        String key = lqKey(spec.namespace(), spec.name());
        if (spec.equals(localQueues.get(key))) {
            return; // e.g. a status write: rerouting every member would cost a pass over them
        }
        localQueues.put(key, spec);
        if (spec.stopPolicy() == StopPolicy.HoldAndDrain) {
            for (WorkloadKey k : members(key)) {
                WorkloadRecord r = workloads.get(k);
                if (r.phase == WorkloadPhase.ADMITTED) {
                    evict(r, EvictionReason.LocalQueueStopped, null, null, "The LocalQueue is stopped");
                }
            }
        }
        rerouteMembers(key);
    }

    public void deleteLocalQueue(String namespace, String name) {
        String key = lqKey(namespace, name);
        if (localQueues.remove(key) != null) {
            rerouteMembers(key);
        }
    }

    private void rerouteMembers(String lqKey) {
        for (WorkloadKey k : members(lqKey)) {
            WorkloadRecord r = workloads.get(k);
            if (r.phase == WorkloadPhase.PENDING) {
                unqueue(r);
                route(r);
            }
        }
    }

    private List<WorkloadKey> members(String lqKey) {
        TreeSet<WorkloadKey> m = localQueueMembers.get(lqKey);
        return m == null ? List.of() : new ArrayList<>(m);
    }

    public void upsertNamespace(String name, Map<String, String> labels) {
        Map<String, String> all = new TreeMap<>(labels == null ? Map.of() : labels);
        all.putIfAbsent("kubernetes.io/metadata.name", name);
        if (all.equals(namespaces.get(name))) {
            return;
        }
        namespaces.put(name, all);
        wakeAll();
    }

    public void deleteNamespace(String name) {
        if (namespaces.remove(name) != null) {
            wakeAll();
        }
    }

    private void wakeAll() {
        for (ClusterQueueState cq : clusterQueues.values()) {
            wakeQueue(cq);
        }
    }

    private static void wakeQueue(ClusterQueueState cq) {
        cq.waitingForPreemption = null;
        cq.queue.wakeParked();
    }

    // ---- workloads ----

    /** Adds or updates a pending workload; for an admitted one only active=false matters (evicts it). */
    public void submit(WorkloadSpec workload) {
        Objects.requireNonNull(workload, "workload");
        validate(workload);
        WorkloadRecord r = workloads.get(workload.key());
        if (r == null) {
            r = new WorkloadRecord(workload);
            workloads.put(workload.key(), r);
            addMember(r);
            route(r);
            return;
        }
        if (r.phase == WorkloadPhase.ADMITTED || r.phase == WorkloadPhase.EVICTING) {
            if (!workload.active() && r.spec.active()) {
                WorkloadSpec s = r.spec;
                r.setSpec(new WorkloadSpec(s.key(), s.uid(), s.queueName(), s.priority(),
                        s.creationTimeMillis(), s.podSets(), false));
                if (r.phase == WorkloadPhase.ADMITTED) {
                    evict(r, EvictionReason.InactiveWorkload, null, null, "The workload is deactivated");
                }
            }
            return;
        }
        unqueue(r);
        removeMember(r);
        r.setSpec(workload);
        if (!r.evicted) {
            r.queueTime = workload.creationTimeMillis();
        }
        addMember(r);
        route(r);
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
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(assignment, "assignment");
        WorkloadRecord r = workloads.get(workload.key());
        if (r != null) {
            forget(r);
        }
        r = new WorkloadRecord(workload);
        workloads.put(workload.key(), r);
        addMember(r);
        ClusterQueueState cq = clusterQueues.computeIfAbsent(assignment.clusterQueue(), ClusterQueueState::new);
        hold(r, cq, assignment, admittedAtMillis);
    }

    private void hold(WorkloadRecord r, ClusterQueueState cq, Assignment assignment, long now) {
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

    /** The caller stopped an evicted workload: release its quota and requeue it (unless deleted or inactive). */
    public void evictionDone(WorkloadKey key, long nowMillis) {
        lastNow = Math.max(lastNow, nowMillis);
        WorkloadRecord r = workloads.get(key);
        if (r == null || r.phase != WorkloadPhase.EVICTING) {
            return;
        }
        release(r);
        r.phase = WorkloadPhase.PENDING;
        route(r);
    }

    /**
     * The caller evicts an admitted workload for a reason of its own (its pods were not ready in time): from now on it
     * is EVICTING, as after a preemption. Returns the decision to apply, or null when the workload is not admitted.
     */
    public Eviction evict(WorkloadKey key, EvictionReason reason, String message, long nowMillis) {
        lastNow = Math.max(lastNow, nowMillis);
        WorkloadRecord r = workloads.get(key);
        if (r == null || r.phase != WorkloadPhase.ADMITTED) {
            return null;
        }
        evict(r, reason, null, null, message);
        return queuedEvictions.remove(queuedEvictions.size() - 1);
    }

    /** Evictions decided outside a cycle (queue stopped, workload deactivated), without admitting anything. */
    public List<Eviction> drainEvictions() {
        List<Eviction> out = new ArrayList<>(queuedEvictions);
        queuedEvictions.clear();
        return out;
    }

    /** The workload finished (success or failure): release its quota and forget it. */
    public void finish(WorkloadKey key) {
        WorkloadRecord r = workloads.get(key);
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
            release(r);
        } else {
            unqueue(r);
        }
        removeMember(r);
        workloads.remove(r.key());
        changedStatuses.remove(r.key());
    }

    private void release(WorkloadRecord r) {
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
    private void wake(ClusterQueueState cq) {
        if (cq.cohort == null) {
            wakeQueue(cq);
            return;
        }
        for (ClusterQueueState m : cq.cohort.members.values()) {
            wakeQueue(m);
        }
    }

    private void evict(WorkloadRecord r, EvictionReason reason, PreemptionReason preemptionReason,
                       WorkloadRecord preemptor, String message) {
        r.phase = WorkloadPhase.EVICTING;
        ClusterQueueState cq = clusterQueues.get(r.clusterQueue);
        if (cq != null) {
            cq.markEvicting(r);
        } else {
            r.evicted = true;
        }
        r.queueTime = lastNow;
        r.message = message;
        queuedEvictions.add(new Eviction(r.key(), reason, preemptionReason,
                preemptor == null ? null : preemptor.key(), message));
    }

    // ---- routing: which ClusterQueue a pending workload waits in ----

    private void route(WorkloadRecord r) {
        r.clusterQueue = null;
        WorkloadSpec s = r.spec;
        if (!s.active()) {
            park(r, "The workload is deactivated");
            return;
        }
        if (s.queueName() == null || s.queueName().isEmpty()) {
            park(r, "Workload has no queue name; set the label kueue.x-k8s.io/queue-name to a LocalQueue");
            return;
        }
        LocalQueueSpec lq = localQueues.get(lqKey(s.key().namespace(), s.queueName()));
        if (lq == null) {
            park(r, "LocalQueue " + s.queueName() + " doesn't exist");
            return;
        }
        if (lq.stopPolicy() != StopPolicy.None) {
            park(r, "LocalQueue " + s.queueName() + " is inactive");
            return;
        }
        ClusterQueueState cq = clusterQueues.get(lq.clusterQueue());
        if (cq == null || !cq.exists()) {
            park(r, "ClusterQueue " + lq.clusterQueue() + " doesn't exist");
            return;
        }
        unrouted.remove(r.key());
        r.clusterQueue = cq.name;
        cq.queue.push(r);
        if (!cq.isActive()) {
            setStatus(r, PendingReason.Inadmissible, "ClusterQueue " + cq.name + " is inactive");
        } else if (r.reportedMessage == null || r.reportedReason == PendingReason.Inadmissible) {
            setStatus(r, PendingReason.Pending, queuedMessage(cq));
        }
    }

    private static String queuedMessage(ClusterQueueState cq) {
        return "Workload is waiting in ClusterQueue " + cq.name + " for its turn";
    }

    private void park(WorkloadRecord r, String message) {
        unrouted.add(r.key());
        setStatus(r, PendingReason.Inadmissible, message);
    }

    private void unqueue(WorkloadRecord r) {
        if (r.clusterQueue != null) {
            ClusterQueueState cq = clusterQueues.get(r.clusterQueue);
            if (cq != null) {
                cq.queue.remove(r);
                if (cq.waitingForPreemption == r) {
                    cq.waitingForPreemption = null;
                }
            }
            r.clusterQueue = null;
        }
        unrouted.remove(r.key());
    }

    private void routeUnrouted(java.util.function.Predicate<LocalQueueSpec> which) {
        for (WorkloadKey k : new ArrayList<>(unrouted)) {
            WorkloadRecord r = workloads.get(k);
            LocalQueueSpec lq = r.spec.queueName() == null ? null
                    : localQueues.get(lqKey(k.namespace(), r.spec.queueName()));
            if (lq != null && which.test(lq)) {
                route(r);
            }
        }
    }

    /** The queue became active or inactive: tell its waiting workloads. */
    private void activityChanged(ClusterQueueState cq, boolean wasActive) {
        boolean active = cq.isActive();
        if (active == wasActive) {
            return;
        }
        for (WorkloadRecord r : cq.queue.all()) {
            if (!active) {
                setStatus(r, PendingReason.Inadmissible, "ClusterQueue " + cq.name + " is inactive");
            } else if (r.reportedReason == PendingReason.Inadmissible) {
                setStatus(r, PendingReason.Pending, queuedMessage(cq));
            }
        }
    }

    private void setStatus(WorkloadRecord r, PendingReason reason, String message) {
        r.message = message;
        if (reason == r.reportedReason && message.equals(r.reportedMessage)) {
            return;
        }
        r.reportedReason = reason;
        r.reportedMessage = message;
        changedStatuses.put(r.key(), new PendingStatus(r.key(), reason, message));
    }

    private void addMember(WorkloadRecord r) {
        if (r.spec.queueName() != null) {
            localQueueMembers.computeIfAbsent(lqKey(r.key().namespace(), r.spec.queueName()), k -> new TreeSet<>())
                    .add(r.key());
        }
    }

    private void removeMember(WorkloadRecord r) {
        if (r.spec.queueName() == null) {
            return;
        }
        String k = lqKey(r.key().namespace(), r.spec.queueName());
        TreeSet<WorkloadKey> m = localQueueMembers.get(k);
        if (m != null) {
            m.remove(r.key());
            if (m.isEmpty()) {
                localQueueMembers.remove(k);
            }
        }
    }

    private static String lqKey(String namespace, String name) {
        return namespace + "/" + name;
    }

    // ---- the admission cycle ----

    /**
     * A nominated head; or, with hold set, a preemptor still waiting for its victims, whose usage is held again in
     * this cycle (as Kueue's preemptor, nominated each cycle until its victims are gone, reserves it each cycle).
     */
    private record Entry(WorkloadRecord workload, ClusterQueueState cq, FlavorAssigner.Result result,
                         List<Preemptor.Target> targets, boolean hold) {
        Entry(WorkloadRecord workload, ClusterQueueState cq, FlavorAssigner.Result result,
              List<Preemptor.Target> targets) {
            this(workload, cq, result, targets, false);
        }
    }

    /** No borrowing before borrowing, then higher priority, then earlier, then key. */
    private static final Comparator<Entry> ENTRY_ORDER = Comparator
            .comparing((Entry e) -> e.result().borrows())
            .thenComparingInt(e -> -e.workload().priority())
            .thenComparingLong(e -> e.workload().queueTime)
            .thenComparing(e -> e.workload().key());

    /** One admission cycle. Callers loop while the result has admissions or evictions. */
    public CycleResult schedule(long nowMillis) {
        lastNow = Math.max(lastNow, nowMillis);
        List<Admission> admissions = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        for (ClusterQueueState cq : clusterQueues.values()) {
            if (cq.isActive() && cq.waitingForPreemption != null) {
                entries.add(new Entry(cq.waitingForPreemption, cq, cq.waitingResult, List.of(), true));
            } else if (cq.isActive() && cq.queue.hasActive()) {
                Entry e = nominate(cq);
                if (e != null) {
                    entries.add(e);
                }
            }
        }
        entries.sort(ENTRY_ORDER);
        Set<String> preemptionInvalidated = new HashSet<>();
        Set<WorkloadKey> targeted = new HashSet<>();
        List<WorkloadRecord> requeue = new ArrayList<>();
        // A preemptor keeps the room it makes: its usage is reserved for the rest of the cycle (Kueue's
        // cycleCohortsUsage), so borrowing workloads after it cannot take what its victims free.
        List<Entry> reserved = new ArrayList<>();
        for (Entry e : entries) {
            WorkloadRecord r = e.workload();
            ClusterQueueState cq = e.cq();
            String scope = cq.cohort != null ? "cohort:" + cq.cohort.name : "cq:" + cq.name;
            if (e.hold()) {
                // Without it, borrowers would take the room the victims leave and the preemptor would preempt
                // again, forever. Like a preemption, it makes later preemption plans of the scope stale.
                cq.addUsage(e.result().usage());
                reserved.add(e);
                preemptionInvalidated.add(scope);
                continue;
            }
            if (e.result().mode() == FlavorAssigner.Mode.FIT) {
                if (!cq.fits(e.result().usage(), true)) {
                    setStatus(r, PendingReason.Pending, "Workload no longer fits after processing another workload");
                    requeue.add(r);
                    continue;
                }
                cq.queue.leftQueue(r);
                hold(r, cq, e.result().assignment(cq.name), nowMillis);
                r.message = "Quota reserved in ClusterQueue " + cq.name + ", wait time since queued was "
                        + Math.max(0, (nowMillis - r.queueTime + 500) / 1000) + "s";
                changedStatuses.remove(r.key());
                admissions.add(new Admission(r.key(), r.assignment, r.message));
                preemptionInvalidated.add(scope);
                continue;
            }
            // Preemption: victims go first; the preemptor is admitted in a later cycle once they are gone.
            List<Preemptor.Target> targets = e.targets();
            boolean overlaps = targets.stream().anyMatch(t -> targeted.contains(t.workload().key()));
            if (preemptionInvalidated.contains(scope) || overlaps) {
                setStatus(r, PendingReason.Pending,
                        "Workload skipped because its preemption calculations were invalidated by another workload");
                requeue.add(r);
                continue;
            }
            for (Preemptor.Target t : targets) {
                targeted.add(t.workload().key());
                if (t.workload().phase == WorkloadPhase.ADMITTED) {
                    evict(t.workload(), EvictionReason.Preempted, t.reason(), r, preemptionMessage(r, t.reason()));
                }
            }
            setStatus(r, PendingReason.Pending, e.result().message() + ". Pending the preemption of "
                    + targets.size() + " workload(s)");
            requeue.add(r);
            cq.waitingForPreemption = r;
            cq.waitingResult = e.result();
            preemptionInvalidated.add(scope);
            cq.addUsage(e.result().usage());
            reserved.add(e);
        }
        for (Entry e : reserved) {
            e.cq().removeUsage(e.result().usage());
        }
        for (WorkloadRecord r : requeue) {
            PendingQueue q = clusterQueues.get(r.clusterQueue).queue;
            q.leftQueue(r);
            q.push(r);
        }
        List<PendingStatus> pending = new ArrayList<>();
        for (PendingStatus s : changedStatuses.values()) {
            WorkloadRecord r = workloads.get(s.workload());
            if (r != null && r.phase == WorkloadPhase.PENDING) {
                pending.add(s);
            }
        }
        changedStatuses.clear();
        List<Eviction> evictions = new ArrayList<>(queuedEvictions);
        queuedEvictions.clear();
        return new CycleResult(admissions, evictions, pending);
    }

    /**
     * Takes heads of the queue until one can be admitted or must preempt. Inadmissible heads are parked
     * (BestEffortFIFO) or block the queue (StrictFIFO). Parked heads do not change the state, so trying the
     * next head in the same cycle gives what Kueue gives over several cycles, only sooner.
     */
    private Entry nominate(ClusterQueueState cq) {
        WorkloadRecord r;
        while ((r = cq.queue.pollHead()) != null) {
            LabelSelector selector = cq.spec.namespaceSelector();
            if (selector == null || !selector.matches(namespaceLabels(r.key().namespace()))) {
                setStatus(r, PendingReason.Inadmissible, "Workload namespace doesn't match ClusterQueue selector");
                cq.queue.park(r);
                continue;
            }
            final WorkloadRecord wl = r;
            NominationOracle oracle = new NominationOracle(r, cq, shortcuts);
            int[] counts = new int[r.spec.podSets().size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = r.spec.podSets().get(i).count();
            }
            FlavorAssigner.Result res = assigner.assign(r.spec, cq, counts, oracle);
            if (res.mode() == FlavorAssigner.Mode.FIT) {
                return new Entry(r, cq, res, List.of());
            }
            if (res.mode() == FlavorAssigner.Mode.PREEMPT) {
                List<Preemptor.Target> targets = oracle.targets(res);
                if (!targets.isEmpty()) {
                    return new Entry(r, cq, res, targets);
                }
            }
            // As Kueue's pod set reducer: fewer pods that fit, or that fit once victims are gone.
            Entry partial = PartialAdmission.search(r.spec, counts, c -> {
                FlavorAssigner.Result a = assigner.assign(wl.spec, cq, c, oracle);
                if (a.mode() == FlavorAssigner.Mode.FIT) {
                    return new Entry(wl, cq, a, List.of());
                }
                if (a.mode() == FlavorAssigner.Mode.PREEMPT) {
                    List<Preemptor.Target> t = oracle.targets(a);
                    return t.isEmpty() ? null : new Entry(wl, cq, a, t);
                }
                return null;
            });
            if (partial != null) {
                return partial;
            }
            setStatus(r, PendingReason.Pending, res.message());
            if (cq.spec.queueingStrategy() == QueueingStrategy.StrictFIFO) {
                cq.queue.leftQueue(r);
                cq.queue.push(r);
                return null;
            }
            cq.queue.park(r);
        }
        return null;
    }

    /** A namespace's labels; one the engine was not told about has only its name label. */
    private Map<String, String> namespaceLabels(String namespace) {
        Map<String, String> labels = namespaces.get(namespace);
        return labels != null ? labels : Map.of("kubernetes.io/metadata.name", namespace);
    }

    private static String preemptionMessage(WorkloadRecord preemptor, PreemptionReason reason) {
        String why = switch (reason) {
            case InClusterQueue -> "prioritization in the ClusterQueue";
            case InCohortReclamation -> "reclamation within the cohort";
            case InCohortReclaimWhileBorrowing -> "reclamation within the cohort while borrowing";
        };
        return "Preempted to accommodate a workload (UID: " + preemptor.spec.uid() + ", JobUID: UNKNOWN) due to "
                + why;
    }

    // ---- queries ----

    /** Status of a ClusterQueue, or null if no such queue exists. */
    public ClusterQueueStatus clusterQueueStatus(String name) {
        ClusterQueueState cq = clusterQueues.get(name);
        if (cq == null || !cq.exists()) {
            return null;
        }
        Map<FlavorResource, Long> usage = new TreeMap<>(cq.usageView());
        String[] cond = cq.activeCondition();
        return new ClusterQueueStatus(name, cq.spec.cohort(), cq.queue.size(), cq.queue.parkedCount(),
                cq.admitted.size(), cq.admitted.size(), usage, usage, cq.isActive(), cond[0], cond[1]);
    }

    /** Status of a LocalQueue, or null if no such queue exists. */
    public LocalQueueStatus localQueueStatus(String namespace, String name) {
        String key = lqKey(namespace, name);
        LocalQueueSpec lq = localQueues.get(key);
        return lq == null ? null : localQueueStatus(lq, localQueueMembers.get(key));
    }

    /** Status of every LocalQueue, keyed "namespace/name": one pass over the members, for the status writer. */
    public Map<String, LocalQueueStatus> localQueueStatuses() {
        Map<String, LocalQueueStatus> out = new HashMap<>();
        for (Map.Entry<String, LocalQueueSpec> e : localQueues.entrySet()) {
            out.put(e.getKey(), localQueueStatus(e.getValue(), localQueueMembers.get(e.getKey())));
        }
        return out;
    }

    private LocalQueueStatus localQueueStatus(LocalQueueSpec lq, Set<WorkloadKey> members) {
        int pending = 0;
        int holding = 0;
        Map<FlavorResource, Long> usage = new TreeMap<>();
        if (members != null) {
            for (WorkloadKey k : members) {
                WorkloadRecord r = workloads.get(k);
                if (r.phase == WorkloadPhase.PENDING) {
                    pending++;
                } else {
                    holding++;
                    r.usage.forEach((fr, v) -> usage.merge(fr, v, Long::sum));
                }
            }
        }
        ClusterQueueState cq = clusterQueues.get(lq.clusterQueue());
        boolean active;
        String reason;
        String message;
        if (lq.stopPolicy() != StopPolicy.None) {
            active = false;
            reason = "Stopped";
            message = "LocalQueue is stopped";
        } else if (cq == null || !cq.exists()) {
            active = false;
            reason = "ClusterQueueDoesNotExist";
            message = "Can't submit new workloads to clusterQueue";
        } else if (!cq.isActive()) {
            active = false;
            reason = "ClusterQueueIsInactive";
            message = "Can't submit new workloads to clusterQueue";
        } else {
            active = true;
            reason = "Ready";
            message = "Can submit new workloads to localQueue";
        }
        return new LocalQueueStatus(lq.namespace(), lq.name(), lq.clusterQueue(), pending, holding, holding, usage,
                usage, active, reason, message);
    }

    public Optional<WorkloadState> workload(WorkloadKey key) {
        WorkloadRecord r = workloads.get(key);
        if (r == null) {
            return Optional.empty();
        }
        WorkloadPhase phase = r.phase;
        if (phase == WorkloadPhase.PENDING && (r.reportedReason == PendingReason.Inadmissible || isParked(r))) {
            phase = WorkloadPhase.INADMISSIBLE;
        }
        return Optional.of(new WorkloadState(r.spec, phase, r.clusterQueue, r.assignment, r.message, r.admittedAt));
    }

    private boolean isParked(WorkloadRecord r) {
        if (r.clusterQueue == null) {
            return true;
        }
        ClusterQueueState cq = clusterQueues.get(r.clusterQueue);
        return cq != null && cq.queue.isParked(r);
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

    /** Names of all ClusterQueues, sorted. */
    public List<String> clusterQueueNames() {
        List<String> out = new ArrayList<>();
        for (ClusterQueueState cq : clusterQueues.values()) {
            if (cq.exists()) {
                out.add(cq.name);
            }
        }
        return out;
    }

    /** Names of all cohorts that have at least one ClusterQueue, sorted. */
    public List<String> cohortNames() {
        return List.copyOf(cohorts.keySet());
    }

    /** A cohort's members, nominal quota and usage (for metrics); empty if no ClusterQueue names it. */
    public Optional<CohortStatus> cohortStatus(String cohort) {
        CohortState c = cohorts.get(cohort);
        return c == null ? Optional.empty() : Optional.of(c.status());
    }
}
