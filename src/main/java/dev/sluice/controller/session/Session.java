package dev.sluice.controller.session;

import dev.sluice.controller.cache.CachedPriorityClasses;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.InformerClient;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.write.EventRecorder;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.WriteLanes;
import dev.sluice.controller.write.WriteSettings;
import dev.sluice.controller.write.Writes;
import dev.sluice.engine.Engine;
import dev.sluice.jobs.JobKinds;
import dev.sluice.metrics.AdmissionEvents;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One run of the controller while it leads: a fresh engine, fresh caches and the writers. The engine and the caches'
 * bookkeeping are used from the engine loop's single thread only; writes run on the lanes and report back to it. A restart (or a new term as leader) builds a new session from the cluster.
 */
public final class Session {

    public final Engine engine;
    /** Kueue's fairSharing: whether shares order admission and are written to status and the gauges. */
    public final dev.sluice.engine.FairSharing fairSharing;
    public final ClusterCache cache;
    /** What the informers list and watch on: a Vert.x of its own, so their work never holds up Quarkus's loops. */
    final InformerClient informerClient;
    public final JobKinds kinds;
    /** Queue jobs held the ack-kube-queue way (no queue label) in their namespace's LocalQueue default. */
    public final boolean kubeQueueCompat;
    /** How often job kinds whose CRD was missing are looked for again. */
    public final java.time.Duration crdRecheck;
    public final Writes writes;
    public final EventRecorder events;
    /** Where a failed write is logged, counted and shown on its object. */
    public final WriteFailures failures;
    public final AdmissionEvents metrics;
    public final CachedPriorityClasses priorityClasses;
    final Clock clock;
    /** Hands a reference back to the loop (e.g. the job of a Workload that changed). */
    public final Consumer<Ref> requeue;
    /** Hands a reference back to the loop after a back-off (a write failed). */
    public final Consumer<Ref> retry;
    /** Runs a task on the engine thread (what a write, done elsewhere, means for the engine). */
    public final Consumer<Runnable> onEngine;
    /** Where the decisions' writes are made, off the engine thread. */
    public final WriteLanes lanes;
    public final WriteSettings writeSettings;
    /**
     * Jobs whose Workload was deleted while the cache still showed the job (engine thread only): before a new Workload
     * is created for one, the API server is asked whether the job itself still exists (its delete event may lag).
     */
    public final java.util.Set<Ref> workloadGoneFor = new java.util.HashSet<>();
    public final KubernetesClient client;
    /** Kueue's admissionFairSharing: LocalQueue usage orders heads; its status and gauge are written only when on. */
    public final dev.sluice.engine.AdmissionFairSharing admissionFairSharing;
    /** waitForPodsReady, and how often its timers are checked. */
    public final dev.sluice.readiness.WaitForPodsReady readiness;
    public final java.time.Duration readinessCheckPeriod;
    /** objectRetentionPolicies.workloads: which Workloads are deleted, when ({@code RetentionSweep}). */
    public final WorkloadRetention retention;
    /** Delayed work (pending-status writes): one small thread. */
    public final ScheduledExecutorService timer;
    /** Run times of Workloads as they finish, for the forecast: one for the process, across terms. */
    public final FinishedRuns finishedRuns;
    /** Topology-aware scheduling's pods: the ungater and the node failure reporting (started once synced). */
    public final dev.sluice.controller.tas.TasControllers tas;

    public Session(KubernetesClient client, JobKinds kinds, boolean kubeQueueCompat, java.time.Duration crdRecheck, AdmissionEvents metrics, Clock clock,
            Function<String, Optional<Integer>> workloadPriorityClasses, Consumer<Ref> sink,
            Consumer<Ref> requeue, Consumer<Ref> retry, Consumer<Runnable> onEngine, WriteSettings writeSettings,
            WaitForPodsReadyConfig readiness, long listPageSize, WorkloadRetention retention,
            dev.sluice.engine.FairSharing fairSharing, dev.sluice.dashboard.Journal journal,
            dev.sluice.engine.AdmissionFairSharing admissionFairSharing, FinishedRuns finishedRuns) {
        this.engine = new Engine(fairSharing, admissionFairSharing);
        this.finishedRuns = finishedRuns;
        this.admissionFairSharing = admissionFairSharing;
        this.fairSharing = fairSharing;
        this.client = client;
        this.readiness = readiness.settings();
        this.readinessCheckPeriod = readiness.checkPeriod();
        this.kinds = kinds;
        this.kubeQueueCompat = kubeQueueCompat;
        this.crdRecheck = crdRecheck;
        this.informerClient = new InformerClient(client.getConfiguration());
        this.cache = new ClusterCache(informerClient.client(), kinds, sink, listPageSize);
        this.retention = retention;
        this.writes = new Writes(client);
        this.events = new EventRecorder(client, metrics, journal, writeSettings.events());
        this.metrics = metrics;
        this.failures = new WriteFailures(events, metrics, clock);
        this.priorityClasses = new CachedPriorityClasses(cache, workloadPriorityClasses);
        this.clock = clock;
        this.requeue = requeue;
        this.retry = retry;
        this.onEngine = onEngine;
        this.writeSettings = writeSettings;
        this.lanes = new WriteLanes(writeSettings.lanes(), "sluice-write");
        this.tas = new dev.sluice.controller.tas.TasControllers(informerClient.client(), client, cache, writes,
                failures, events, metrics, clock, listPageSize, engine, onEngine);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-timer");
            t.setDaemon(true);
            return t;
        });
    }

    /** Stops the writers and the caches; what was not written is found again by the next session. */
    public void close() {
        timer.shutdownNow();
        lanes.close();
        tas.close();
        cache.close();
        informerClient.close();
        events.close();
    }

    public Instant now() {
        return clock.instant();
    }

    public long nowMillis() {
        return clock.millis();
    }
}
