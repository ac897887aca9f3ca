package dev.sluice.controller.sync;

import dev.sluice.api.v1beta2.RequeueState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.session.Session;
import dev.sluice.controller.write.Writes;
import dev.sluice.engine.Admission;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.EvictionReason;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.jobs.JobKind;
import dev.sluice.readiness.DueTimes;
import dev.sluice.readiness.PodsReadyRules.Ready;
import dev.sluice.readiness.PodsReadyRules;
import dev.sluice.readiness.WaitForPodsReady;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * waitForPodsReady in the controller (Kueue's rules in {@link PodsReadyRules}): keeps each admitted Workload's PodsReady
 * condition in step with its job's status, evicts a Workload whose pods are not ready in time (reason
 * PodsReadyTimeout) and requeues it after a backoff written in {@code status.requeueState}, deactivates it after
 * {@code backoffLimitCount} requeues, and with blockAdmission holds every admission while an admitted Workload is not
 * ready. Everything it decides is read back from the Workloads' own conditions, so a restarted controller neither
 * evicts early nor twice. Used from the engine thread only; a periodic tick (on the session's timer) checks what is due.
 */
final class PodsReadySync {

    private static final Logger LOG = Logger.getLogger(PodsReadySync.class);

    private final Session s;
    private final WorkloadSync workloads;
    private final WaitForPodsReady settings;
    /** Admitted Workloads not yet (or no longer) ready, and when each times out. */
    private final DueTimes<WorkloadKey> timeouts = new DueTimes<>();
    /** Workloads waiting out their requeue backoff, and when it ends. */
    private final DueTimes<WorkloadKey> backoffs = new DueTimes<>();
    /** Admitted (or admission decided) and not PodsReady: with blockAdmission nothing else is admitted meanwhile. */
    private final Set<WorkloadKey> notReady = new HashSet<>();
    /** The requeueState each decided timeout eviction writes with its Evicted condition. */
    private final Map<WorkloadKey, PodsReadyRules.Requeue> requeues = new HashMap<>();
    /**
     * The deactivation target (reason, message) each decided deactivation writes into its Evicted condition: kept
     * until the eviction is written, so a retry after a write whose answer was lost (the target already removed)
     * writes the same.
     */
    private final Map<WorkloadKey, String[]> deactivations = new HashMap<>();
    /** The wait each pending PodsReadyTimeout eviction ends (WaitForStart, WaitForRecovery): Kueue's underlying cause. */
    private final Map<WorkloadKey, String> timeoutCauses = new HashMap<>();
    /** Status writes on their way, not sent again meanwhile. */
    private final Set<WorkloadKey> writing = new HashSet<>();
    private final Random jitter = new Random();
    /** The earliest due time, for the timer thread: it wakes the engine only when something is due. */
    private volatile long nextDueMillis = Long.MAX_VALUE;

    PodsReadySync(Session session, WorkloadSync workloads) {
        this.s = session;
        this.workloads = workloads;
        this.settings = session.readiness;
        long period = Math.max(10, session.readinessCheckPeriod.toMillis());
        try {
            s.timer.scheduleWithFixedDelay(() -> {
                if (nextDueMillis <= s.nowMillis()) {
                    s.onEngine.accept(this::tick);
                }
            }, period, period, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the session is closing
        }
    }

    // ---- Workload events ----

    /**
     * Every Workload event: its timers and flags follow its conditions. Returns false when the Workload must not be
     * queued now (it waits out its backoff); the caller then leaves it out of the engine.
     */
    boolean observe(Workload wl) {
        try {
            return observeNow(wl);
        } finally {
            publishNextDue();
        }
    }

    private void publishNextDue() {
        Long a = timeouts.next();
        Long b = backoffs.next();
        nextDueMillis = Math.min(a == null ? Long.MAX_VALUE : a, b == null ? Long.MAX_VALUE : b);
    }

    private boolean observeNow(Workload wl) {
        WorkloadKey key = EngineWorkloads.key(wl);
        boolean active = wl.getSpec() == null || !Boolean.FALSE.equals(wl.getSpec().getActive());
        if (WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)) {
            forget(key);
            return true;
        }
        if (active && WorkloadConditions.isTrue(wl, PodsReadyRules.DEACTIVATION_TARGET)) {
            deactivate(wl); // Kueue's step: the target condition first, then spec.active false
        }
        if (WorkloadConditions.hasReservation(wl)) {
            backoffs.remove(key);
            trackAdmitted(key, wl);
            return true;
        }
        notReady.remove(key);
        timeouts.remove(key);
        Condition requeued = WorkloadConditions.find(wl, WorkloadConditions.REQUEUED);
        if (requeued == null || !"False".equals(requeued.getStatus())) {
            backoffs.remove(key);
            return true;
        }
        if (PodsReadyRules.DEACTIVATED.equals(requeued.getReason()) && active) {
            // deactivated by a user: Kueue's workload reconciler says Reactivated (its switch names this reason
            // only; one deactivated for the requeuing limit is queued again with its Requeued=False left as it is)
            requeuedAgain(key, PodsReadyRules.REACTIVATED, PodsReadyRules.REACTIVATED_MESSAGE, false);
            return false; // queued once Requeued is True
        }
        if (PodsReadyRules.TIMEOUT_REASON.equals(requeued.getReason())
                || dev.sluice.controller.conditions.AdmissionCheckStates.EVICTION_REASON.equals(requeued.getReason())) {
            // Kueue: a Retry's backoff is the requeueAt its checks asked for (none: queued at once)
            RequeueState rs = wl.getStatus().getRequeueState();
            long at = rs == null || rs.getRequeueAt() == null ? 0 : WorkloadSync.millis(rs.getRequeueAt());
            LOG.debugf("Workload %s (rv %s) waits out its backoff until %d", key, wl.getMetadata().getResourceVersion(), at);
            backoffs.put(key, at);
            if (at <= s.nowMillis()) {
                tick();
            }
            return false;
        }
        return true;
    }

    /** The Workload is gone or finished. */
    void forget(WorkloadKey key) {
        timeouts.remove(key);
        backoffs.remove(key);
        notReady.remove(key);
        requeues.remove(key);
        deactivations.remove(key);
        timeoutCauses.remove(key);
        publishNextDue();
    }

    private void trackAdmitted(WorkloadKey key, Workload wl) {
        Ready ready = ready(wl);
        if (ready != null && ready.status()) {
            notReady.remove(key);
        } else {
            notReady.add(key);
        }
        Condition admitted = WorkloadConditions.find(wl, WorkloadConditions.ADMITTED);
        boolean running = admitted != null && "True".equals(admitted.getStatus())
                && !WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED);
        if (!running || wl.getSpec() != null && Boolean.FALSE.equals(wl.getSpec().getActive())) {
            timeouts.remove(key);
            return;
        }
        Condition cond = WorkloadConditions.find(wl, PodsReadyRules.CONDITION);
        long since = cond == null ? 0 : WorkloadSync.millis(cond.getLastTransitionTime());
        Optional<PodsReadyRules.Deadline> deadline = PodsReadyRules.deadline(settings,
                WorkloadSync.millis(admitted.getLastTransitionTime()), ready, since);
        if (deadline.isPresent()) {
            LOG.debugf("Workload %s (rv %s) times out at %d unless ready", key, wl.getMetadata().getResourceVersion(),
                    deadline.get().atMillis());
            timeouts.put(key, deadline.get().atMillis());
            timeoutCauses.put(key, deadline.get().cause());
        } else {
            timeouts.remove(key);
        }
    }

    /** Admissions just decided: not ready until their job says so (blockAdmission counts them at once). */
    void admitted(List<Admission> admissions) {
        for (Admission a : admissions) {
            notReady.add(a.workload());
        }
    }

    /** With blockAdmission on: an admitted Workload is not ready, so nothing else may be admitted now. */
    boolean blocksAdmission() {
        return settings.blocks() && !notReady.isEmpty();
    }

    /**
     * The Workload's spec as the engine queues it: with requeuingStrategy.timestamp Eviction a Workload evicted for
     * PodsReadyTimeout takes its place by the time of that eviction, not by its creation.
     */
    WorkloadSpec queueOrder(Workload wl, WorkloadSpec spec) {
        Condition evicted = WorkloadConditions.find(wl, WorkloadConditions.EVICTED);
        Long timedOutAt = evicted != null && "True".equals(evicted.getStatus())
                && PodsReadyRules.TIMEOUT_REASON.equals(evicted.getReason())
                ? WorkloadSync.millis(evicted.getLastTransitionTime()) : null;
        long order = PodsReadyRules.queueOrderMillis(settings, spec.creationTimeMillis(), timedOutAt);
        return order == spec.creationTimeMillis() ? spec : new WorkloadSpec(spec.key(), spec.uid(), spec.queueName(),
                spec.priority(), order, spec.podSets(), spec.active());
    }

    // ---- the job's side: the PodsReady condition ----

    /** The job of an admitted, running Workload changed: PodsReady follows what its status says. */
    void job(JobKind kind, GenericKubernetesResource job, Workload wl) {
        WorkloadKey key = EngineWorkloads.key(wl);
        boolean podsReady;
        try {
            podsReady = kind.podsReady(job);
        } catch (RuntimeException e) {
            podsReady = false; // an unreadable status counts as not ready
        }
        Ready current = ready(wl);
        Ready next = PodsReadyRules.next(WorkloadConditions.mayRun(wl), current, podsReady);
        if (current != null && current.status() == next.status() && current.reason().equals(next.reason())) {
            if (current.status()) {
                // e.g. after a restart: the meters learn it is up since the condition says so (repeats change nothing)
                Condition c = WorkloadConditions.find(wl, PodsReadyRules.CONDITION);
                s.metrics.workloadReady(key.namespace(), key.name(),
                        Instant.ofEpochMilli(WorkloadSync.millis(c.getLastTransitionTime())));
            }
            return;
        }
        if (!writing.add(key)) {
            return;
        }
        Instant now = s.now();
        workloads.writeStatus(key, x -> withReady(x, next, now), w -> {
            writing.remove(key);
            if (w == null) {
                s.retry.accept(new Ref(ClusterCache.typeOf(kind), job.getMetadata().getNamespace(),
                        job.getMetadata().getName()));
                return;
            }
            if (!w.changed() || w.workload() == null) {
                return;
            }
            if (PodsReadyRules.STARTED.equals(next.reason())) {
                becameReady(w.workload(), now);
            }
            if (next.status()) {
                s.metrics.workloadReady(key.namespace(), key.name(), now);
            } else if (current != null && current.status()) {
                s.metrics.workloadNotReady(key.namespace(), key.name(), now);
            }
        });
    }

    /**
     * Added to an admission's status write: a Workload with a job starts with PodsReady False/WaitForStart, the
     * condition its job's first status would bring, so that the job's side finds it already written (one status write
     * per admission instead of two). A Workload without a job gets no PodsReady condition (nothing reports it).
     */
    Workload onAdmission(Workload wl, boolean hasJob, Instant now) {
        if (!hasJob) {
            return wl;
        }
        Ready current = ready(wl);
        Ready next = new Ready(false, PodsReadyRules.WAIT_FOR_START, PodsReadyRules.NOT_READY_MESSAGE);
        return current != null && current.status() == next.status() && current.reason().equals(next.reason()) ? wl
                : withReady(wl, next, now);
    }

    /** First readiness since admission: the wait-time meters. */
    private void becameReady(Workload wl, Instant now) {
        Condition admitted = WorkloadConditions.find(wl, WorkloadConditions.ADMITTED);
        String cq = wl.getStatus() == null || wl.getStatus().getAdmission() == null ? null
                : wl.getStatus().getAdmission().getClusterQueue();
        if (cq == null || admitted == null) {
            return;
        }
        double sinceAdmitted = Math.max(0, now.toEpochMilli() - WorkloadSync.millis(admitted.getLastTransitionTime()));
        double sinceQueued = Math.max(0, now.toEpochMilli() - WorkloadSync.queuedAtMillis(wl));
        s.metrics.podsReady(cq, sinceAdmitted / 1000.0, sinceQueued / 1000.0);
    }

    private static Workload withReady(Workload wl, Ready ready, Instant now) {
        WorkloadStatus status = wl.getStatus() == null ? new WorkloadStatus() : wl.getStatus();
        wl.setStatus(status);
        status.setConditions(Conditions.set(status.getConditions(), PodsReadyRules.CONDITION, ready.status(),
                ready.reason(), ready.message(), wl.getMetadata().getGeneration(), now));
        return wl;
    }

    static Ready ready(Workload wl) {
        Condition c = WorkloadConditions.find(wl, PodsReadyRules.CONDITION);
        return c == null ? null : new Ready("True".equals(c.getStatus()), c.getReason() == null ? "" : c.getReason(),
                c.getMessage());
    }

    // ---- what the eviction write carries ----

    /**
     * Added to an eviction's status write: a PodsReadyTimeout eviction records its requeueState with it; a
     * deactivation that had a target (RequeuingLimitExceeded) gets Kueue's reason and message, drops the target and
     * the requeueState.
     */
    Workload onEviction(Workload wl, Eviction e) {
        WorkloadKey key = e.workload();
        WorkloadStatus status = wl.getStatus();
        if (status == null) {
            return wl;
        }
        if (e.reason() == EvictionReason.PodsReadyTimeout) {
            PodsReadyRules.Requeue r = requeues.get(key);
            if (r != null) {
                RequeueState rs = new RequeueState();
                rs.setCount(r.count());
                rs.setRequeueAt(Instant.ofEpochMilli(r.requeueAtMillis()).toString());
                status.setRequeueState(rs);
            }
            return wl;
        }
        if (e.reason() != EvictionReason.InactiveWorkload) {
            return wl;
        }
        Condition target = Conditions.find(status.getConditions(), PodsReadyRules.DEACTIVATION_TARGET);
        if (target != null && "True".equals(target.getStatus())) {
            deactivations.put(key, new String[] {target.getReason(), target.getMessage()});
            status.getConditions().remove(target);
        }
        String[] cause = deactivations.get(key);
        if (cause != null) {
            Condition evicted = Conditions.find(status.getConditions(), WorkloadConditions.EVICTED);
            if (evicted != null) {
                evicted.setReason(PodsReadyRules.deactivatedReason(cause[0]));
                evicted.setMessage(PodsReadyRules.deactivatedMessage(cause[1]));
            }
            status.setRequeueState(null);
        }
        return wl;
    }

    /** The eviction is written: its requeueState is on the Workload now. */
    void evictionWritten(WorkloadKey key) {
        requeues.remove(key);
        deactivations.remove(key);
        timeoutCauses.remove(key);
    }

    /** The eviction's reason as Kueue v0.19 labels it in its metrics: a deactivation is {@code Deactivated}. */
    static String metricReason(Eviction e) {
        return e.reason() == EvictionReason.InactiveWorkload ? PodsReadyRules.DEACTIVATED : e.reason().name();
    }

    /**
     * The eviction's underlying cause as Kueue v0.19 labels it: for PodsReadyTimeout the wait that timed out
     * (WaitForStart, WaitForRecovery); for a deactivation the cause written into its Evicted reason
     * (DeactivatedDueTo<i>RequeuingLimitExceeded</i>); else none. Read before {@link #evictionWritten}.
     */
    String underlyingCause(Eviction e, String writtenReason) {
        if (e.reason() == EvictionReason.PodsReadyTimeout) {
            return timeoutCauses.getOrDefault(e.workload(), PodsReadyRules.WAIT_FOR_START);
        }
        String prefix = PodsReadyRules.DEACTIVATED + "DueTo";
        return writtenReason != null && writtenReason.startsWith(prefix) ? writtenReason.substring(prefix.length()) : "";
    }

    /** Kueue's event reason for an eviction written with {@code evictedReason}: Evicted, or "EvictedDueTo" + reason. */
    static String eventReason(String evictedReason) {
        if (PodsReadyRules.TIMEOUT_REASON.equals(evictedReason)) {
            return PodsReadyRules.TIMEOUT_EVENT;
        }
        if (dev.sluice.controller.conditions.AdmissionCheckStates.EVICTION_REASON.equals(evictedReason)) {
            return "EvictedDueTo" + evictedReason;
        }
        if (evictedReason != null && evictedReason.startsWith(PodsReadyRules.DEACTIVATED + "DueTo")) {
            return "EvictedDueTo" + evictedReason;
        }
        return "Evicted";
    }

    // ---- timers ----

    /** Periodic, on the engine thread: timeouts and backoffs that are due. */
    void tick() {
        long now = s.nowMillis();
        for (WorkloadKey key : timeouts.takeDue(now)) {
            try {
                timedOut(key, now);
            } catch (RuntimeException e) {
                LOG.warnf(e, "the PodsReady timeout of Workload %s failed; retried on its next event", key);
            }
        }
        for (WorkloadKey key : backoffs.takeDue(now)) {
            requeuedAgain(key, PodsReadyRules.BACKOFF_FINISHED, PodsReadyRules.BACKOFF_FINISHED_MESSAGE, true);
        }
        publishNextDue();
    }

    /** A timeout is due: checked again against the cached Workload (level-triggered), then requeue or deactivate. */
    private void timedOut(WorkloadKey key, long now) {
        Workload wl = workloads.freshest(key);
        if (wl == null || !WorkloadConditions.mayRun(wl)) {
            LOG.debugf("PodsReady timeout of Workload %s dropped: %s", key, wl == null ? "gone" : "not running at rv "
                    + wl.getMetadata().getResourceVersion());
            return;
        }
        trackAdmitted(key, wl);
        Long due = timeouts.get(key);
        if (due == null || due > now) {
            return; // ready meanwhile, or the recorded times say later
        }
        timeouts.remove(key);
        RequeueState rs = wl.getStatus().getRequeueState();
        int count = rs == null || rs.getCount() == null ? 0 : rs.getCount();
        PodsReadyRules.Outcome outcome = PodsReadyRules.onTimeout(settings, count, now, jitter.nextDouble());
        if (outcome instanceof PodsReadyRules.Requeue r) {
            Eviction e = s.engine.evict(key, EvictionReason.PodsReadyTimeout,
                    PodsReadyRules.timeoutMessage(key.namespace(), key.name()), now);
            LOG.debugf("PodsReady timeout of Workload %s (rv %s): %s", key, wl.getMetadata().getResourceVersion(),
                    e == null ? "not evicted, the engine does not count it admitted" : "evicted, requeue " + r);
            if (e != null) {
                requeues.put(key, r);
                workloads.apply(new CycleResult(List.of(), List.of(e), List.of()));
            }
            return;
        }
        if (!writing.add(key)) {
            timeouts.put(key, now); // another status write of it is on its way: tried again on the next tick
            return;
        }
        Instant at = s.now();
        workloads.writeStatus(key, x -> {
            WorkloadStatus st = x.getStatus();
            st.setConditions(Conditions.set(st.getConditions(), PodsReadyRules.DEACTIVATION_TARGET, true,
                    PodsReadyRules.LIMIT_EXCEEDED, PodsReadyRules.LIMIT_EXCEEDED_MESSAGE,
                    x.getMetadata().getGeneration(), at));
            return x;
        }, w -> {
            writing.remove(key);
            if (w == null) {
                timeouts.put(key, now); // tried again on the next tick
                publishNextDue();
            } else if (w.changed() && w.workload() != null) {
                // no event: Kueue v0.19 records none for the target (triggerDeactivation), only the eviction's
                LOG.debugf("Workload %s: requeuing limit %d reached after %d requeues; deactivating", key,
                        settings.backoffLimitCount(), count);
                deactivate(w.workload());
            }
        });
    }

    /** spec.active false, guarded by the resourceVersion; the engine then evicts it as deactivated. */
    private void deactivate(Workload wl) {
        WorkloadKey key = EngineWorkloads.key(wl);
        String version = wl.getMetadata().getResourceVersion();
        s.lanes.execute(key, () -> {
            String patch = "[{\"op\":\"replace\",\"path\":\"/metadata/resourceVersion\",\"value\":\"" + version + "\"},"
                    + "{\"op\":\"add\",\"path\":\"/spec/active\",\"value\":false}]";
            try {
                s.client.resources(Workload.class).inNamespace(key.namespace())
                        .resource(Writes.named(new Workload(), key.namespace(), key.name()))
                        .patch(PatchContext.of(PatchType.JSON), patch);
            } catch (KubernetesClientException e) {
                if (!Writes.isNotFound(e)) {
                    // a conflict too: the Workload is looked at again from the cache (still active with its target:
                    // patched again over the newer version); nothing else may bring it back
                    LOG.infof("Workload %s not deactivated (%s); retrying", key, e.getMessage());
                    s.retry.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name()));
                }
            }
        });
    }

    /** Requeued True (BackoffFinished, Reactivated): the Workload may be queued again; its event submits it. */
    private void requeuedAgain(WorkloadKey key, String reason, String message, boolean clearRequeueAt) {
        if (!writing.add(key)) {
            if (clearRequeueAt) {
                backoffs.put(key, s.nowMillis()); // another status write of it is on its way: the next tick
            }
            return;
        }
        Instant now = s.now();
        workloads.writeStatus(key, x -> {
            WorkloadStatus st = x.getStatus();
            Condition requeued = Conditions.find(st.getConditions(), WorkloadConditions.REQUEUED);
            if (WorkloadConditions.hasReservation(x) || requeued == null || !"False".equals(requeued.getStatus())) {
                return x; // admitted or released meanwhile
            }
            st.setConditions(Conditions.set(st.getConditions(), WorkloadConditions.REQUEUED, true, reason, message,
                    x.getMetadata().getGeneration(), now));
            if (clearRequeueAt && st.getRequeueState() != null) {
                st.getRequeueState().setRequeueAt(null);
            }
            return x;
        }, w -> {
            writing.remove(key);
            LOG.debugf("Requeued=True/%s of Workload %s: %s", reason, key, w == null ? "write failed"
                    : w.changed() ? "written" : "unchanged");
            if (w == null) {
                backoffs.put(key, s.nowMillis()); // tried again on the next tick
                publishNextDue();
            } else if (w.changed() && w.workload() != null) {
                s.events.normal(w.workload(), "Requeued", message);
            }
        });
    }
}
