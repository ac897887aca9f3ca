package dev.sluice.sim;

import dev.sluice.engine.Admission;
import dev.sluice.engine.Assignment;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Engine;
import dev.sluice.engine.EvictionReason;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.PendingStatus;
import dev.sluice.engine.PodSetAssignment;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadPhase;
import dev.sluice.engine.WorkloadState;
import dev.sluice.readiness.PodsReadyRules;
import dev.sluice.readiness.WaitForPodsReady;
import dev.sluice.engine.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;

/**
 * The engine in virtual time. At each instant with events: finishes, then submissions, are applied; then
 * {@code schedule(now)} runs until a cycle neither admits nor evicts. Evictions complete at once (the job stops
 * immediately) and the workload waits again; once re-admitted it runs its full duration again. Inadmissible events
 * are reported when the engine parks a workload with a new message. waitForPodsReady applies Kueue's rules
 * ({@link PodsReadyRules}): a job annotated {@code sluice.dev/simulated-ready-after} longer than the timeout (or
 * {@code never}) is evicted at the timeout, requeued after its backoff and deactivated at the limit; a job that gets
 * ready runs its duration from then.
 */
public final class Simulation {

    /** A cycle loop that never settles is an engine bug; stop rather than spin. */
    static final int MAX_CYCLES_PER_INSTANT = 1_000_000;

    private record Timed(long time, int order, long seq, WorkloadRun run, int runId) {
    }

    private static final int FINISH = 0;
    private static final int READY = 1;
    private static final int TIMEOUT = 2;
    private static final int REQUEUE = 3;
    private static final int SUBMIT = 4;
    private static final int LOST = 5;

    private final Scenario scenario;
    private final Engine engine;
    private final Map<WorkloadKey, WorkloadRun> runs = new LinkedHashMap<>();
    private final List<SimEvent> events = new ArrayList<>();
    private final PriorityQueue<Timed> queue = new PriorityQueue<>((a, b) -> a.time != b.time ? Long.compare(a.time, b.time)
            : a.order != b.order ? Integer.compare(a.order, b.order) : Long.compare(a.seq, b.seq));
    private final UsageTracker usage;
    private final Placements placements;
    /** Shares of the cohort tree's nodes over time; null without Cohort objects or fair sharing. */
    private final ShareTracker shares;
    /** Admission fair sharing's LocalQueue usage, or null while it is off. */
    private final LocalQueueUsageTracker localQueueUsage;
    private final List<dev.sluice.engine.CohortSpec> cohorts = new ArrayList<>();
    private long seq;
    private long engineNanos;
    private long engineCpu;
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private long now;
    private int admissions;
    private int evictions;
    private int cycles;
    private final WaitForPodsReady readiness;
    /** Admitted and not yet ready: with blockAdmission nothing else is admitted meanwhile. */
    private final Set<WorkloadKey> notReady = new HashSet<>();

    /** Sees the state after each instant settled (the forecast accuracy harness); reads only. */
    interface Observer {
        void settled(long now, Engine engine, java.util.Collection<WorkloadRun> runs);
    }

    private Observer observer;

    /** Someone watching the run as it goes (the {@code --serve} dashboard): told each event, paces the instants. */
    interface Watcher {
        /** An event of the timeline; preemptor is the workload that preempted this one, else null. */
        void event(SimEvent event, WorkloadKey preemptor);

        /** Called before the instant at {@code nextMillis} runs, outside the lock; returns when it may run. */
        void beforeInstant(long nextMillis) throws InterruptedException;
    }

    private Watcher watcher;
    /** Held while an instant runs, so that a reader between instants sees a settled engine. */
    private final Object lock = new Object();
    private WorkloadKey preemptor;

    /** Lets a watcher follow the run; it must not change the engine or the runs. */
    Simulation watch(Watcher w) {
        this.watcher = w;
        return this;
    }

    /** Runs {@code read} between two instants (never while one is applied), on the caller's thread. */
    <T> T read(java.util.function.Function<Engine, T> read) {
        synchronized (lock) {
            return read.apply(engine);
        }
    }

    /** The virtual time of the latest instant. */
    long now() {
        synchronized (lock) {
            return now;
        }
    }

    /** Calls the observer after each instant; it must not change the engine or the runs. */
    Simulation observe(Observer o) {
        this.observer = o;
        return this;
    }

    public Simulation(Scenario scenario) {
        this(scenario, dev.sluice.engine.FairSharing.OFF, WaitForPodsReady.kueueDefaults());
    }

    public Simulation(Scenario scenario, WaitForPodsReady readiness) {
        this(scenario, dev.sluice.engine.FairSharing.OFF, readiness);
    }

    /** A simulation whose engine runs with the given fair-sharing configuration. */
    public Simulation(Scenario scenario, dev.sluice.engine.FairSharing fairSharing) {
        this(scenario, fairSharing, WaitForPodsReady.kueueDefaults());
    }

    public Simulation(Scenario scenario, dev.sluice.engine.FairSharing fairSharing, WaitForPodsReady readiness) {
        this(scenario, fairSharing, readiness, dev.sluice.engine.AdmissionFairSharing.OFF);
    }

    /** With Kueue's admissionFairSharing too: LocalQueue usage is sampled on its interval, as Kueue's timer does. */
    public Simulation(Scenario scenario, dev.sluice.engine.FairSharing fairSharing, WaitForPodsReady readiness,
            dev.sluice.engine.AdmissionFairSharing admissionFairSharing) {
        this.engine = new Engine(fairSharing, admissionFairSharing);
        this.localQueueUsage = admissionFairSharing.enabled() ? new LocalQueueUsageTracker(scenario.localQueues())
                : null;
        this.scenario = scenario;
        this.usage = new UsageTracker(scenario.clusterQueues());
        this.placements = new Placements(scenario);
        for (var c : scenario.cohorts()) {
            cohorts.add(dev.sluice.bridge.CohortObjects.cohort(c)); // checked when read: valid here
        }
        // tracked with Cohort objects, or cohorts under fair sharing (not for every flat benchmark: it costs a pass per instant)
        boolean anyCohort = !cohorts.isEmpty()
                || fairSharing.enabled() && scenario.clusterQueues().stream().anyMatch(cq -> cq.cohort() != null);
        this.shares = anyCohort ? new ShareTracker(scenario.clusterQueues(), cohorts) : null;
        this.readiness = readiness;
    }

    /** Runs to the end: until no event is left (or, watched, until the watcher's pacing is interrupted). */
    public SimResult run() {
        synchronized (lock) {
            setUp();
        }
        while (!queue.isEmpty()) {
            if (watcher != null) {
                try {
                    watcher.beforeInstant(nextInstant());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            synchronized (lock) {
                instant();
            }
        }
        synchronized (lock) {
            return result();
        }
    }

    private void setUp() {
        long t0 = System.nanoTime();
        for (dev.sluice.engine.tas.Topology t : scenario.topologies()) {
            engine.upsertTopology(t);
        }
        for (FlavorSpec f : scenario.flavors()) {
            engine.upsertFlavor(f);
        }
        if (!scenario.nodes().isEmpty()) {
            engine.setNodes(scenario.nodes(), Map.of()); // no pods but the simulated ones: nothing else uses the nodes
        }
        for (var ns : new TreeMap<>(scenario.namespaces()).entrySet()) {
            engine.upsertNamespace(ns.getKey(), ns.getValue());
        }
        for (dev.sluice.engine.CohortSpec c : cohorts) {
            engine.upsertCohort(c);
        }
        for (ClusterQueueSpec cq : scenario.clusterQueues()) {
            engine.upsertClusterQueue(cq);
        }
        for (LocalQueueSpec lq : scenario.localQueues()) {
            engine.upsertLocalQueue(lq);
        }
        engineNanos += System.nanoTime() - t0;
        for (SimWorkload w : scenario.workloads()) {
            WorkloadRun run = new WorkloadRun(w);
            runs.put(w.key(), run);
            queue.add(new Timed(w.submitAtMillis(), SUBMIT, seq++, run, 0));
        }
    }

    /** When the next instant is: the next event, or a LocalQueue usage sample due before it. */
    private long nextInstant() {
        var sample = engine.nextLocalQueueUsageSampleMillis();
        long next = queue.peek().time();
        // Kueue samples on a timer, between events too: the cycle at that instant takes the samples
        return sample.isPresent() && sample.getAsLong() < next ? sample.getAsLong() : next;
    }

    /** The events of the next instant: applied, then the engine settled. */
    private void instant() {
        now = nextInstant();
        while (!queue.isEmpty() && queue.peek().time() == now) {
            apply(queue.poll());
        }
        settle();
        if (shares != null) {
            shares.sample(now, engine);
        }
        if (localQueueUsage != null) {
            localQueueUsage.sample(engine);
        }
        if (observer != null) {
            observer.settled(now, engine, runs.values());
        }
    }

    private SimResult result() {
        long end = now;
        for (WorkloadRun run : runs.values()) {
            if (run.submitted && run.finishedMillis == null && run.assignment == null) {
                run.close(end, WorkloadRun.Phase.WAITING);
            }
        }
        return new SimResult(scenario, List.copyOf(runs.values()), events, usage, end, engineNanos, admissions,
                evictions, cycles, engineCpu, shares, localQueueUsage == null ? null : localQueueUsage.rows(engine));
    }

    private void apply(Timed t) {
        WorkloadRun run = t.run();
        if (t.order() == SUBMIT) {
            long s = System.nanoTime();
            long c = cpu();
            engine.submit(run.workload.spec());
            engineNanos += System.nanoTime() - s;
            engineCpu += cpu() - c;
            run.submitted = true;
            run.phaseStart = now;
            event(SimEvent.Type.Submitted, run, null, Map.of(), null);
            return;
        }
        if (t.order() == REQUEUE) {
            if (t.runId() == run.runId) {
                requeued(run);
            }
            return;
        }
        if (t.runId() != run.runId || run.assignment == null) {
            return; // preempted since: this finish belongs to an earlier run
        }
        if (t.order() == READY) {
            notReady.remove(run.workload.key());
            event(SimEvent.Type.PodsReady, run, run.clusterQueue, Map.of(), PodsReadyRules.READY_MESSAGE);
            return;
        }
        if (t.order() == TIMEOUT) {
            timedOut(run);
            return;
        }
        if (t.order() == LOST) {
            readinessLost(run);
            return;
        }
        notReady.remove(run.workload.key());
        long s = System.nanoTime();
        long c = cpu();
        engine.finish(run.workload.key());
        engineNanos += System.nanoTime() - s;
        engineCpu += cpu() - c;
        usage.add(now, run.clusterQueue, run.assignment.usage(), -1);
        run.close(now, WorkloadRun.Phase.RUNNING);
        run.finishedMillis = now;
        event(SimEvent.Type.Finished, run, run.clusterQueue, flavors(run.assignment), null);
        run.assignment = null;
    }

    private void settle() {
        Set<WorkloadKey> changed = new LinkedHashSet<>();
        for (int i = 0; ; i++) {
            if (i >= MAX_CYCLES_PER_INSTANT) {
                throw new IllegalStateException("the engine did not settle after " + i + " cycles at t="
                        + Durations.seconds(now) + "s");
            }
            long s = System.nanoTime();
            long c = cpu();
            // blockAdmission, as the controller and Kueue: one admission per cycle, none while an admitted workload is
            // not ready; evictions still go out
            CycleResult r = readiness.blocks() ? engine.schedule(now, notReady.isEmpty() ? 1 : 0) : engine.schedule(now);
            engineNanos += System.nanoTime() - s;
            engineCpu += cpu() - c;
            cycles++;
            for (Eviction e : r.evictions()) {
                evicted(e);
            }
            for (Admission a : r.admissions()) {
                admitted(a);
            }
            for (PendingStatus p : r.pending()) {
                changed.add(p.workload());
            }
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                break;
            }
        }
        for (WorkloadKey k : changed) {
            WorkloadRun run = runs.get(k);
            long s = System.nanoTime();
            long c = cpu();
            Optional<WorkloadState> state = engine.workload(k);
            engineNanos += System.nanoTime() - s;
            engineCpu += cpu() - c;
            if (run == null || state.isEmpty()) {
                continue;
            }
            run.lastMessage = state.get().message();
            if (state.get().phase() == WorkloadPhase.INADMISSIBLE
                    && !state.get().message().equals(run.lastInadmissibleMessage)) {
                run.lastInadmissibleMessage = state.get().message();
                event(SimEvent.Type.Inadmissible, run, state.get().clusterQueue(), Map.of(), state.get().message());
            }
        }
    }

    private void admitted(Admission a) {
        admissions++;
        WorkloadRun run = runs.get(a.workload());
        Assignment as = a.assignment();
        run.close(now, WorkloadRun.Phase.WAITING);
        run.assignment = as;
        run.clusterQueue = as.clusterQueue();
        run.admissions++;
        run.runId++;
        run.lastInadmissibleMessage = null;
        run.lastMessage = a.message();
        if (run.firstAdmittedMillis == null) {
            run.firstAdmittedMillis = now;
        }
        usage.add(now, as.clusterQueue(), as.usage(), +1);
        event(SimEvent.Type.Admitted, run, as.clusterQueue(), flavors(as), a.message(), placements.of(as));
        long readyAfter = run.workload.readyAfterMillis();
        long timeout = readiness.timeout().toMillis();
        if (readyAfter != 0) {
            notReady.add(a.workload());
        }
        if (readiness.enabled() && (readyAfter == SimWorkload.NEVER || readyAfter > timeout)) {
            queue.add(new Timed(now + timeout, TIMEOUT, seq++, run, run.runId));
            return;
        }
        if (readyAfter == SimWorkload.NEVER) {
            return; // never ready and no timeout: it holds its quota to the end
        }
        if (readyAfter > 0) {
            queue.add(new Timed(now + readyAfter, READY, seq++, run, run.runId));
        }
        if (run.workload.losesReadiness()) {
            // a pod fails and is not replaced: the job makes no progress, so it never finishes this admission
            queue.add(new Timed(now + readyAfter + run.workload.readyLostAfterMillis(), LOST, seq++, run, run.runId));
            return;
        }
        queue.add(new Timed(now + readyAfter + run.workload.durationMillis(), FINISH, seq++, run, run.runId));
    }

    /** Its readiness is lost (PodsReady False/WaitForRecovery): evicted at the recovery timeout, if there is one. */
    private void readinessLost(WorkloadRun run) {
        notReady.add(run.workload.key());
        boolean timesOut = readiness.enabled() && readiness.recoveryTimeout() != null;
        event(SimEvent.Type.PodsNotReady, run, run.clusterQueue, Map.of(), PodsReadyRules.RECOVERY_MESSAGE
                + (timesOut ? "; recovery timeout at " + Durations.seconds(now + readiness.recoveryTimeout().toMillis())
                + "s" : "; no recovery timeout: it holds its quota"));
        if (timesOut) {
            queue.add(new Timed(now + readiness.recoveryTimeout().toMillis(), TIMEOUT, seq++, run, run.runId));
        }
    }

    /** Its pods were not ready in time: requeued after a backoff, or deactivated at the limit (Kueue's rules). */
    private void timedOut(WorkloadRun run) {
        WorkloadKey key = run.workload.key();
        PodsReadyRules.Outcome outcome = PodsReadyRules.onTimeout(readiness, run.requeues, now, 0);
        boolean deactivate = outcome instanceof PodsReadyRules.Deactivate;
        String message = deactivate ? PodsReadyRules.deactivatedMessage(PodsReadyRules.LIMIT_EXCEEDED_MESSAGE)
                : PodsReadyRules.timeoutMessage(key.namespace(), key.name());
        long s = System.nanoTime();
        long c = cpu();
        Eviction e = engine.evict(key, deactivate ? EvictionReason.InactiveWorkload : EvictionReason.PodsReadyTimeout,
                message, now);
        if (e != null) {
            engine.delete(key); // the job stops at once; it is queued again only after its backoff (or never)
        }
        engineNanos += System.nanoTime() - s;
        engineCpu += cpu() - c;
        if (e == null) {
            return;
        }
        evictions++;
        notReady.remove(key);
        usage.add(now, run.clusterQueue, run.assignment.usage(), -1);
        run.close(now, WorkloadRun.Phase.PREEMPTED);
        run.evicted(e.reason().name());
        run.runId++;
        run.lastMessage = message;
        if (deactivate) {
            event(SimEvent.Type.Deactivated, run, run.clusterQueue, flavors(run.assignment),
                    message + " (" + run.requeues + " requeues, backoffLimitCount " + readiness.backoffLimitCount() + ")");
            run.assignment = null;
            return;
        }
        PodsReadyRules.Requeue r = (PodsReadyRules.Requeue) outcome;
        run.requeues = r.count();
        run.timedOutAt = now;
        event(SimEvent.Type.Evicted, run, run.clusterQueue, flavors(run.assignment), message + "; requeued at "
                + Durations.seconds(r.requeueAtMillis()) + "s (backoff " + r.count() + ")");
        run.assignment = null;
        queue.add(new Timed(r.requeueAtMillis(), REQUEUE, seq++, run, run.runId));
    }

    /** The backoff ended: queued again, by the eviction's time or its creation (requeuingStrategy.timestamp). */
    private void requeued(WorkloadRun run) {
        if (readiness.backoffLimitCount() == null && !othersCanFinish(run)) {
            // without a backoff limit Kueue retries it forever; with nothing else left the run ends here
            event(SimEvent.Type.Requeued, run, null, Map.of(), PodsReadyRules.BACKOFF_FINISHED_MESSAGE
                    + "; nothing else is left to run and its pods never get ready, so the simulation ends here "
                    + "(--backoff-limit-count N shows it deactivated)");
            return;
        }
        WorkloadSpec sp = run.workload.spec();
        long order = PodsReadyRules.queueOrderMillis(readiness, sp.creationTimeMillis(), run.timedOutAt);
        long s = System.nanoTime();
        long c = cpu();
        engine.submit(new WorkloadSpec(sp.key(), sp.uid(), sp.queueName(), sp.priority(), order, sp.podSets(),
                sp.active()));
        engineNanos += System.nanoTime() - s;
        engineCpu += cpu() - c;
        event(SimEvent.Type.Requeued, run, null, Map.of(), PodsReadyRules.BACKOFF_FINISHED_MESSAGE);
    }

    private void evicted(Eviction e) {
        evictions++;
        notReady.remove(e.workload());
        WorkloadRun run = runs.get(e.workload());
        if (run.assignment != null) {
            usage.add(now, run.clusterQueue, run.assignment.usage(), -1);
            run.close(now, WorkloadRun.Phase.PREEMPTED);
        }
        run.evicted(e.reason().name());
        run.runId++;
        run.lastMessage = e.message();
        SimEvent.Type type = e.reason() == EvictionReason.Preempted ? SimEvent.Type.Preempted : SimEvent.Type.Evicted;
        preemptor = e.preemptor();
        event(type, run, run.clusterQueue, flavors(run.assignment), e.message());
        preemptor = null;
        run.assignment = null;
        long s = System.nanoTime();
        long c = cpu();
        engine.evictionDone(e.workload(), now); // the simulated job stops at once
        engineNanos += System.nanoTime() - s;
        engineCpu += cpu() - c;
    }

    /** Whether some other workload still has work to finish (its pods get ready within the timeout). */
    private boolean othersCanFinish(WorkloadRun self) {
        long timeout = readiness.timeout().toMillis();
        for (WorkloadRun r : runs.values()) {
            long ready = r.workload.readyAfterMillis();
            if (r != self && r.finishedMillis == null && ready != SimWorkload.NEVER && ready <= timeout
                    && !r.workload.losesReadiness()) {
                return true;
            }
        }
        return false;
    }

    /** CPU time of this thread (ns); 0 where the JVM cannot measure it. */
    private static long cpu() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    private void event(SimEvent.Type type, WorkloadRun run, String clusterQueue, Map<String, Map<String, String>> flavors,
                       String message) {
        event(type, run, clusterQueue, flavors, message, Map.of());
    }

    private void event(SimEvent.Type type, WorkloadRun run, String clusterQueue, Map<String, Map<String, String>> flavors,
                       String message, Map<String, Placements.PodSet> placed) {
        SimEvent e = new SimEvent(now, type, run.workload.key(), run.workload.job(), clusterQueue, flavors, message,
                placed);
        events.add(e);
        if (watcher != null) {
            watcher.event(e, preemptor);
        }
    }

    static Map<String, Map<String, String>> flavors(Assignment assignment) {
        if (assignment == null) {
            return Map.of();
        }
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (PodSetAssignment ps : assignment.podSets()) {
            out.put(ps.name(), new TreeMap<>(ps.flavors()));
        }
        return out;
    }

    /** For tests and callers that need the same engine the run used. */
    Engine engine() {
        return engine;
    }

}
