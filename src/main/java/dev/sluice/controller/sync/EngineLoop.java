package dev.sluice.controller.sync;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.queues.CohortStatusSync;
import dev.sluice.controller.queues.QueueStatusSync;
import dev.sluice.controller.queues.QueueSync;
import dev.sluice.controller.queues.TopologySync;
import dev.sluice.controller.session.Session;
import dev.sluice.engine.CycleResult;
import dev.sluice.jobs.JobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The one thread that owns the engine. Informers hand it {@link Ref}s; it reconciles each from the caches
 * (queue objects first, then Workloads, then jobs), then runs admission cycles until nothing more is decided,
 * applies the decisions and writes queue status. Before the first cycle it rebuilds the engine from the cluster:
 * every Workload with a recorded admission is counted again, so nothing is admitted twice or lost.
 */
public final class EngineLoop implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EngineLoop.class);
    /** Enough for a burst of admissions; the loop comes back after handling new events anyway. */
    private static final int MAX_CYCLES_PER_PASS = 256;
    private static final List<String> ORDER = List.of(Ref.FLAVOR, Ref.TOPOLOGY, Ref.NODES, Ref.ADMISSION_CHECK, Ref.COHORT,
            Ref.CLUSTER_QUEUE, Ref.LOCAL_QUEUE, Ref.NAMESPACE, Ref.PRIORITY, Ref.WORKLOAD);

    private static final long QUEUE_STATUS_PERIOD_MS = 1000;
    private static final long PROGRESS_PERIOD_MS = 30_000;
    /**
     * After the first event of a quiet spell, the loop waits this long for more before deciding: under a stream of
     * events a cycle then sees many changes at once instead of trying every parked head again for each one.
     */
    private static final long BATCH_WINDOW_MS = 10;

    /** {@link Ref}s from the informers, each object once, and tasks (a write's outcome) to run on the engine thread. */
    private final Inbox inbox = new Inbox();
    private final ScheduledExecutorService retries;
    private final Thread thread;
    private final CountDownLatch rebuiltLatch = new CountDownLatch(1);
    private final Function<EngineLoop, Session> sessionFactory;
    /** How long an informer's initial list may go without a new object before the session fails (not how long it may take). */
    private final long listStallSeconds;
    private volatile boolean running = true;
    private volatile boolean rebuilt;
    private volatile long heartbeatMillis = System.currentTimeMillis();
    private volatile Throwable failure;

    private long lastQueueStatusMillis;
    private int admissionsSinceProgress;
    private boolean queueStatusDue;
    private Session s;
    private QueueSync queues;
    private TopologySync topologies;
    private WorkloadSync workloads;
    private JobSync jobs;
    private QueueStatusSync queueStatus;
    private CohortStatusSync cohortStatus;

    public EngineLoop(Function<EngineLoop, Session> sessionFactory, long listStallSeconds) {
        this.sessionFactory = sessionFactory;
        this.listStallSeconds = listStallSeconds;
        this.retries = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sluice-retry"));
        this.thread = daemon(this::run, "sluice-engine");
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    public void start() {
        thread.start();
    }

    /** From any thread: something changed. */
    public void submit(Ref ref) {
        if (running) {
            inbox.add(ref);
        }
    }

    /** From any thread: run this on the engine thread (e.g. what a finished write means for the engine). */
    public void runOnEngine(Runnable task) {
        if (running) {
            inbox.add(task);
        }
    }

    /** From any thread: try again a little later (a write failed). */
    public void retry(Ref ref) {
        if (running) {
            retries.schedule(() -> submit(ref), 1, TimeUnit.SECONDS);
        }
    }

    public boolean awaitRebuilt(long timeout, TimeUnit unit) throws InterruptedException {
        return rebuiltLatch.await(timeout, unit);
    }

    public boolean rebuilt() {
        return rebuilt && running && failure == null;
    }

    public boolean cachesSynced() {
        return s != null && s.cache.synced();
    }

    public long heartbeatMillis() {
        return heartbeatMillis;
    }

    public boolean alive() {
        return running && thread.isAlive() && failure == null;
    }

    public Throwable failure() {
        return failure;
    }

    public Session session() {
        return s;
    }

    /** Topologies and the node view into the engine (tests read how often the engine got nodes). */
    public TopologySync topologies() {
        return topologies;
    }

    private void run() {
        try {
            s = sessionFactory.apply(this);
            queues = new QueueSync(s);
            topologies = new TopologySync(s);
            workloads = new WorkloadSync(s);
            jobs = new JobSync(s, workloads);
            queueStatus = new QueueStatusSync(s);
            cohortStatus = new CohortStatusSync(s);
            rebuild();
            rebuilt = true;
            rebuiltLatch.countDown();
            pass(new LinkedHashSet<>());
            long lastCrdCheckMillis = System.currentTimeMillis();
            long lastProgressMillis = lastCrdCheckMillis;
            while (running) {
                heartbeatMillis = System.currentTimeMillis();
                if (s.cache.hasAbsentKinds() && heartbeatMillis - lastCrdCheckMillis >= s.crdRecheck.toMillis()) {
                    lastCrdCheckMillis = heartbeatMillis;
                    s.cache.watchNewlyServedKinds(); // a CRD installed after start: no restart needed
                }
                workloads.retention().sweep(); // objectRetentionPolicies: cheap when nothing is due
                if (heartbeatMillis - lastProgressMillis >= PROGRESS_PERIOD_MS) {
                    lastProgressMillis = heartbeatMillis;
                    logProgress();
                }
                long wait = queueStatusDue
                        ? Math.max(1, lastQueueStatusMillis + QUEUE_STATUS_PERIOD_MS - System.currentTimeMillis())
                        : 1000;
                wait = Math.min(wait, untilUsageSample());
                if (!inbox.await(wait, TimeUnit.MILLISECONDS)) {
                    if (untilUsageSample() == 0) {
                        pass(new LinkedHashSet<>()); // the cycle takes the samples; queue status follows
                        continue;
                    }
                    if (queueStatusDue) {
                        syncQueueStatus();
                    }
                    continue;
                }
                Thread.sleep(BATCH_WINDOW_MS);
                Inbox.Batch batch = inbox.take();
                batch.tasks().forEach(EngineLoop::runTask);
                pass(batch.refs());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            if (running) {
                failure = t;
                LOG.error("engine loop stopped", t);
            }
        } finally {
            rebuiltLatch.countDown();
        }
    }

    /** Counts what the cluster already decided, before anything is admitted. */
    private void rebuild() throws Exception {
        long start = System.nanoTime();
        s.cache.startAndSync(listStallSeconds);
        s.tas.start();
        for (ResourceFlavor rf : s.cache.list(s.cache.flavors)) {
            queues.flavor(rf.getMetadata().getName());
        }
        // with a TAS flavor the nodes are listed before anything is counted or admitted
        topologies.rebuild(listStallSeconds);
        for (var cohort : s.cache.list(s.cache.cohorts)) {
            queues.cohort(cohort.getMetadata().getName());
        }
        for (ClusterQueue cq : s.cache.list(s.cache.clusterQueues)) {
            queues.clusterQueue(cq.getMetadata().getName());
        }
        for (LocalQueue lq : s.cache.list(s.cache.localQueues)) {
            queues.localQueue(lq.getMetadata().getNamespace(), lq.getMetadata().getName());
        }
        for (Namespace ns : s.cache.list(s.cache.namespaces)) {
            queues.namespace(ns.getMetadata().getName());
        }
        List<Workload> all = s.cache.list(s.cache.workloads);
        s.finishedRuns.beginRebuild();
        int restored = 0;
        // admitted ones first: their usage is counted before any pending workload is looked at
        for (Workload wl : all) {
            if (WorkloadConditions.hasReservation(wl) && !WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)) {
                workloads.handle(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
                restored++;
            }
        }
        for (Workload wl : all) {
            if (!WorkloadConditions.hasReservation(wl)) {
                workloads.handle(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
            } else {
                tellStoredRun(wl);
            }
        }
        for (Map.Entry<JobKind, ?> e : s.cache.jobs.entrySet()) {
            for (GenericKubernetesResource job : s.cache.list(s.cache.jobs.get(e.getKey()))) {
                inbox.add(new Ref(ClusterCache.typeOf(e.getKey()), job.getMetadata().getNamespace(),
                        job.getMetadata().getName()));
            }
        }
        LOG.infof("engine rebuilt from the cluster in %d ms: %d Workloads, %d with an admission counted again",
                (System.nanoTime() - start) / 1_000_000, all.size(), restored);
    }

    /** A Workload that finished before this session: its run is told to the forecast, as a live finish is. */
    private void tellStoredRun(Workload wl) {
        var finishedAt = WorkloadConditions.finishedMillis(wl);
        if (finishedAt.isPresent() && wl.getSpec() != null) {
            s.finishedRuns.addStored(wl.getMetadata().getNamespace(), wl.getSpec().getQueueName(),
                    wl.getSpec().getPriority() == null ? 0 : wl.getSpec().getPriority(),
                    dev.sluice.bridge.EngineRebuild.reservedAt(wl), finishedAt.getAsLong());
        }
    }

    private void pass(LinkedHashSet<Ref> batch) {
        List<Ref> ordered = new ArrayList<>(batch);
        ordered.sort(Comparator.comparingInt(EngineLoop::rank));
        boolean flavors = false;
        for (Ref ref : ordered) {
            if (flavors && rank(ref) > rank(new Ref(Ref.FLAVOR, null, ""))) {
                flavors = false;
                topologies.flavorsChanged(); // the node view starts with the first TAS flavor, stops with the last
            }
            try {
                handle(ref);
                flavors |= Ref.FLAVOR.equals(ref.type());
            } catch (RuntimeException e) {
                LOG.warnf(e, "reconciling %s failed; retrying", ref);
                retry(ref);
            }
        }
        if (flavors) {
            topologies.flavorsChanged();
        }
        long start = System.nanoTime();
        for (int i = 0; i < MAX_CYCLES_PER_PASS; i++) {
            // blockAdmission, as Kueue's scheduler: one admission at a time, none while an admitted workload is not
            // ready (the head that would go next says WaitingForPodsReady); evictions still go out, so a timeout
            // lifts the block
            boolean blocked = workloads.podsReady().blocksAdmission();
            CycleResult result = s.readiness.blocks() ? s.engine.schedule(s.nowMillis(), blocked ? 0 : 1)
                    : s.engine.schedule(s.nowMillis());
            if (result.isEmpty()) {
                break;
            }
            s.metrics.admissionAttempt(!result.admissions().isEmpty(), (System.nanoTime() - start) / 1e9);
            admissionsSinceProgress += result.admissions().size();
            workloads.apply(result);
            if (result.admissions().isEmpty() && result.evictions().isEmpty()) {
                break;
            }
            start = System.nanoTime();
        }
        // queue status is an aggregate: written at most every QUEUE_STATUS_PERIOD_MS, the last change included
        if (System.currentTimeMillis() - lastQueueStatusMillis >= QUEUE_STATUS_PERIOD_MS) {
            syncQueueStatus();
        } else {
            queueStatusDue = true;
        }
    }

    /**
     * Admission fair sharing samples LocalQueue usage on a timer, as Kueue's LocalQueue reconciler does every
     * usageSamplingInterval: ms until the next sample is due (0 when due), Long.MAX_VALUE when none is booked.
     * Without it, a quiet cluster's consumedResources would not move until the next event.
     */
    private long untilUsageSample() {
        var next = s.engine.nextLocalQueueUsageSampleMillis();
        return next.isEmpty() ? Long.MAX_VALUE : Math.max(0, next.getAsLong() - s.nowMillis());
    }

    /** Under load, a line now and then says the engine is working and what waits (quiet when idle). */
    private void logProgress() {
        int queuedWrites = s.lanes.queued();
        int waiting = inbox.size();
        if (queuedWrites > 0 || waiting > 0 || admissionsSinceProgress > 0) {
            LOG.infof("engine: %d admissions in the last %d s; %d writes queued, %d changes waiting "
                    + "(%d repeated changes coalesced since start)",
                    admissionsSinceProgress, PROGRESS_PERIOD_MS / 1000, queuedWrites, waiting, inbox.coalesced());
        }
        admissionsSinceProgress = 0;
    }

    private void syncQueueStatus() {
        queueStatusDue = false;
        lastQueueStatusMillis = System.currentTimeMillis();
        queueStatus.sync();
        cohortStatus.sync();
    }

    private static void runTask(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warnf(e, "applying the outcome of a write failed");
        }
    }

    private static int rank(Ref ref) {
        int i = ORDER.indexOf(ref.type());
        return i < 0 ? ORDER.size() : i;
    }

    private void handle(Ref ref) {
        switch (ref.type()) {
            case Ref.LOCAL_QUEUE -> {
                queues.handle(ref);
                jobs.waitingForDefault().forEach(this::submit); // LocalQueue default may have appeared
            }
            case Ref.FLAVOR, Ref.COHORT, Ref.CLUSTER_QUEUE, Ref.NAMESPACE -> queues.handle(ref);
            case Ref.ADMISSION_CHECK -> queues.handle(ref);
            case Ref.TOPOLOGY -> topologies.topology(ref.name());
            case Ref.NODES -> topologies.nodes();
            case Ref.PRIORITY -> jobs.blockedJobs().forEach(this::submit);
            case Ref.WORKLOAD -> workloads.handle(ref.namespace(), ref.name());
            default -> {
                for (JobKind kind : s.kinds.all()) {
                    if (ClusterCache.typeOf(kind).equals(ref.type())) {
                        jobs.handle(kind, ref);
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        retries.shutdownNow();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (s != null) {
            s.close();
        }
    }
}
