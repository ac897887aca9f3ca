package dev.sluice.controller.sync;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.Admissions;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.conditions.AdmissionCheckStates;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.session.Session;
import dev.sluice.controller.store.WorkloadStore;
import dev.sluice.controller.write.PendingStatusWrites;
import dev.sluice.controller.write.Writes;
import dev.sluice.engine.Admission;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.EvictionReason;
import dev.sluice.engine.PendingReason;
import dev.sluice.engine.PendingStatus;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadPhase;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.engine.WorkloadState;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * Workloads into the engine (created, changed, finished, deleted), and the engine's decisions back onto the
 * Workloads: admission, eviction and pending status. The writes run on the Workload's lane (so the engine never waits
 * for the API server) and report back to the engine thread. A decision whose write failed is kept and written again
 * when the Workload next changes (or after a back-off), so the cluster converges on what the engine decided.
 */
final class WorkloadSync {

    private static final Logger LOG = Logger.getLogger(WorkloadSync.class);

    private final Session s;
    /** Evictions decided but not yet recorded on the Workload. */
    private final Map<WorkloadKey, Eviction> unwrittenEvictions = new HashMap<>();
    /** Admissions decided but not yet recorded on the Workload. */
    private final Map<WorkloadKey, Admission> unwrittenAdmissions = new HashMap<>();
    /** The job of each Workload seen, so the job hears when its Workload is gone. */
    private final Map<WorkloadKey, Ref> owners = new HashMap<>();
    /** The last invalid-spec message per Workload, reported once. */
    private final Map<WorkloadKey, String> invalid = new HashMap<>();
    /** Workloads whose admission, eviction or requeue write is on a lane now: not sent again meanwhile. */
    private final Set<WorkloadKey> admitting = new HashSet<>();
    private final Set<WorkloadKey> evicting = new HashSet<>();
    private final Set<WorkloadKey> requeueing = new HashSet<>();
    /** Workloads whose Finished write is on a lane now: they hold their quota until it is stored. */
    private final Set<WorkloadKey> finishing = new HashSet<>();
    private final PendingStatusWrites pendingWrites;
    /**
     * Per Workload, the object our last status write returned and the cached resourceVersion it was made over: while
     * the cache still shows that version, the next write starts from what we wrote (no conflict, no re-read).
     */
    private final Map<WorkloadKey, LastWrite> lastWrites = new ConcurrentHashMap<>();

    private record LastWrite(String cachedVersion, Workload written) {
    }

    private final PodsReadySync podsReady;
    private final RetentionSweep retention;
    private final AdmissionCheckSync checks;

    WorkloadSync(Session session) {
        this.s = session;
        PendingStatusWrites.Timer timer = new PendingStatusWrites.Timer() {
            @Override
            public long nowMillis() {
                return System.currentTimeMillis();
            }

            @Override
            public void schedule(Runnable task, long delayMillis) {
                try {
                    s.timer.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // the session is closing
                }
            }
        };
        this.pendingWrites = new PendingStatusWrites(s.writeSettings.pendingDelay(), s.writeSettings.pendingRefresh(),
                timer, s.lanes::background, this::writePending);
        this.podsReady = new PodsReadySync(s, this);
        this.retention = new RetentionSweep(s, s.retention, this::ownerJob);
        this.checks = new AdmissionCheckSync(s, this);
    }

    RetentionSweep retention() {
        return retention;
    }

    /**
     * The newest state of the Workload this controller knows: the cached one, or, while the cache still shows the
     * version our last status write was made over, what that write returned. Decisions must not be taken on a
     * cached copy older than our own write: e.g. a Workload just released (and taken out of the engine) whose watch
     * event is late (a cut watch, a slow API server) would look admitted still, be counted as admitted again and
     * never be queued after its backoff.
     */
    Workload freshest(WorkloadKey key) {
        Workload cached = ClusterCache.get(s.cache.workloads, key.namespace(), key.name());
        String version = cached == null ? null : cached.getMetadata().getResourceVersion();
        LastWrite last = lastWrites.computeIfPresent(key,
                (k, l) -> l.cachedVersion().equals(version) ? l : null);
        return cached == null || last == null ? cached : last.written();
    }

    PodsReadySync podsReady() {
        return podsReady;
    }

    void handle(String namespace, String name) {
        WorkloadKey key = new WorkloadKey(namespace, name);
        Workload wl = freshest(key);
        Optional<WorkloadState> known = s.engine.workload(key);
        if (wl == null || wl.getMetadata().getDeletionTimestamp() != null) {
            if (known.isPresent()) {
                s.engine.delete(key);
                s.metrics.workloadFinished(namespace, name, s.now());
            }
            unwrittenEvictions.remove(key);
            unwrittenAdmissions.remove(key);
            invalid.remove(key);
            pendingWrites.forget(key);
            podsReady.forget(key);
            retention.forget(key);
            Ref owner = owners.remove(key);
            if (owner != null) {
                s.workloadGoneFor.add(owner);
                s.requeue.accept(owner); // e.g. a replaced Workload: the job gets its new one
            }
            return;
        }
        retention.observe(key, wl);
        Optional<Ref> owner = ownerJob(wl);
        owner.ifPresent(o -> {
            owners.put(key, o);
            s.requeue.accept(o);
        });
        if (WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)) {
            if (known.isPresent()) {
                finished(known.get(), WorkloadConditions.finishedMillis(wl).orElse(s.nowMillis()));
                s.engine.finish(key);
                s.metrics.workloadFinished(namespace, name, s.now());
            }
            unwrittenEvictions.remove(key);
            pendingWrites.forget(key);
            podsReady.forget(key);
            return;
        }
        boolean mayQueue = podsReady.observe(wl);
        WorkloadStore.Derived derived = s.cache.workloadStore.derived(namespace, name);
        if (derived == null || derived.spec() == null) {
            String problem = derived == null ? "Workload " + key + " could not be read" : derived.problem();
            if (!Objects.equals(invalid.put(key, problem), problem)) {
                s.events.warning(wl, "Inadmissible", problem);
                pendingWrites.want(new PendingStatus(key, PendingReason.Inadmissible, problem));
            }
            // a waiting one leaves the queue; an admitted one keeps its quota counted: its admission is still stored
            known.filter(k -> k.phase() == WorkloadPhase.PENDING || k.phase() == WorkloadPhase.INADMISSIBLE)
                    .ifPresent(k -> s.engine.delete(key));
            return;
        }
        invalid.remove(key);
        WorkloadSpec spec = podsReady.queueOrder(wl, derived.spec());
        if (known.isEmpty()) {
            LOG.debugf("Workload %s (rv %s) new to the engine: %s", key, wl.getMetadata().getResourceVersion(),
                    WorkloadConditions.hasReservation(wl) ? "admission counted" : mayQueue ? "queued" : "held");
            if (WorkloadConditions.hasReservation(wl)) {
                // admitted by an earlier run (or term): count it, never admit it twice
                restore(wl, spec);
                if (!spec.active() && !WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED)) {
                    // deactivated while no controller ran (e.g. between deactivation and eviction): evict it now
                    Eviction e = s.engine.evict(key, EvictionReason.InactiveWorkload, "The workload is deactivated",
                            s.nowMillis());
                    if (e != null) {
                        apply(new CycleResult(java.util.List.of(), java.util.List.of(e), java.util.List.of()));
                    }
                }
            } else if (mayQueue) {
                s.engine.submit(spec);
            }
            return;
        }
        WorkloadState state = known.get();
        switch (state.phase()) {
            case PENDING, INADMISSIBLE -> {
                if (!state.spec().equals(spec)) {
                    s.engine.submit(spec);
                }
                checks.waiting(key, wl, state.clusterQueue());
            }
            case ADMITTED -> {
                if (state.spec().active() != spec.active()) {
                    s.engine.submit(spec);
                }
                Admission unwritten = unwrittenAdmissions.get(key);
                if (unwritten != null) {
                    admit(key, unwritten);
                } else if (checks.reserved(key, wl, spec)) {
                    return; // its admission checks decided a write
                } else if (owner.isEmpty() && WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED)
                        && WorkloadConditions.hasReservation(wl)) {
                    requeue(wl); // evicted by an earlier leader that stopped before releasing it
                }
            }
            case EVICTING -> {
                Eviction e = unwrittenEvictions.get(key);
                if (e != null) {
                    evict(key, e);
                } else if (ownerJob(wl).isEmpty() && WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED)) {
                    requeue(wl); // no job to stop: the eviction is done once recorded
                }
            }
            default -> {
            }
        }
    }

    /** At restart (or for an admission the engine does not know): counts the recorded admission. */
    void restore(Workload wl, WorkloadSpec spec) {
        try {
            var assignment = Admissions.fromApi(wl.getStatus().getAdmission(),
                    "Workload " + wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName());
            Condition reserved = WorkloadConditions.find(wl, WorkloadConditions.QUOTA_RESERVED);
            long at = reserved == null ? EngineWorkloads.createdMillis(wl) : millis(reserved.getLastTransitionTime());
            s.engine.restoreAdmitted(spec, assignment, at, AdmissionCheckSync.engineStates(wl));
        } catch (InvalidObjectException e) {
            LOG.warnf("cannot count the recorded admission: %s", e.getMessage());
            s.events.warning(wl, "InvalidAdmission", e.getMessage());
        }
    }

    /**
     * A Workload this controller saw for a job whose deletion it has not handled yet: the cache may drop it before its
     * delete event reaches the engine thread, and a job handled in between must not take it for never created.
     */
    boolean deletionPending(WorkloadKey key) {
        return owners.containsKey(key);
    }

    Optional<Ref> ownerJob(Workload wl) {
        if (wl.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (OwnerReference o : wl.getMetadata().getOwnerReferences()) {
            Optional<JobKind> kind = s.kinds.forApiVersionKind(o.getApiVersion(), o.getKind());
            if (kind.isPresent()) {
                return Optional.of(new Ref(ClusterCache.typeOf(kind.get()), wl.getMetadata().getNamespace(), o.getName()));
            }
        }
        return Optional.empty();
    }

    // ---- decisions ----

    void apply(CycleResult result) {
        for (Eviction e : result.evictions()) {
            unwrittenEvictions.put(e.workload(), e);
            if (ClusterCache.get(s.cache.workloads, e.workload().namespace(), e.workload().name()) == null) {
                unwrittenEvictions.remove(e.workload());
                s.engine.delete(e.workload());
                continue;
            }
            guarded(e.workload(), "eviction", () -> evict(e.workload(), e));
        }
        for (Admission a : result.admissions()) {
            unwrittenAdmissions.put(a.workload(), a);
            pendingWrites.forget(a.workload()); // before the admission is queued on the lane: never written after it
            if (ClusterCache.get(s.cache.workloads, a.workload().namespace(), a.workload().name()) == null) {
                unwrittenAdmissions.remove(a.workload());
                s.engine.delete(a.workload());
                continue;
            }
            guarded(a.workload(), "admission", () -> admit(a.workload(), a));
        }
        podsReady.admitted(result.admissions());
        for (PendingStatus p : result.pending()) {
            guarded(p.workload(), "pending status", () -> pendingWrites.want(p));
        }
    }

    /**
     * One decision failing (a write, an event, a meter) must not cost the others of the cycle, nor stop the engine
     * loop: it is logged, and what was not written stays in the unwritten books for the Workload's next event.
     */
    private static void guarded(WorkloadKey workload, String what, Runnable decision) {
        try {
            decision.run();
        } catch (RuntimeException e) {
            LOG.warnf(e, "applying the %s of Workload %s failed; it is retried on the Workload's next event", what,
                    workload);
        }
    }

    /** Queues the admission's write; what it means for the engine is done back on the engine thread. */
    private void admit(WorkloadKey key, Admission a) {
        if (!admitting.add(key)) {
            return; // its write is on the way
        }
        Instant now = s.now();
        var api = Admissions.toApi(a.assignment());
        s.lanes.execute(key, () -> {
            // a job's Workload gets PodsReady False/WaitForStart in its admission's write: one write, not two
            Writes.Written w = writeNow(key, x -> podsReady.onAdmission(
                    WorkloadConditions.admit(x, api, a.message(), a.admissionChecks(), now), ownerJob(x).isPresent(),
                    now));
            s.onEngine.accept(() -> admitted(key, a, now, w));
        });
    }

    private void admitted(WorkloadKey key, Admission a, Instant decidedAt, Writes.Written w) {
        admitting.remove(key);
        if (w == null) {
            s.retry.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name())); // written again then
            return;
        }
        unwrittenAdmissions.remove(key, a);
        if (w.gone()) {
            s.engine.delete(key);
            return;
        }
        if (!w.changed()) {
            ownerJob(w.workload()).ifPresent(s.requeue); // written by an earlier attempt whose answer was lost
            return;
        }
        String cq = a.assignment().clusterQueue();
        double wait = Math.max(0, (decidedAt.toEpochMilli() - queuedAtMillis(w.workload())) / 1000.0);
        s.engine.setAdmissionCheckStates(key, AdmissionCheckSync.engineStates(w.workload()));
        s.events.normal(w.workload(), "QuotaReserved", a.message());
        s.metrics.quotaReserved(cq, wait);
        String lq = w.workload().getSpec().getQueueName();
        if (WorkloadConditions.isTrue(w.workload(), WorkloadConditions.ADMITTED)) {
            s.events.normal(w.workload(), "Admitted", "Admitted by ClusterQueue " + cq
                    + ", wait time since reservation was 0s");
            s.metrics.admitted(cq, wait);
            if (!AdmissionCheckStates.names(w.workload()).isEmpty()) {
                s.metrics.admissionChecksWaited(cq, 0);
            }
            if (lq != null) {
                s.metrics.localQueueAdmitted(key.namespace(), lq, wait);
            }
        } else if (lq != null) {
            s.metrics.localQueueQuotaReserved(key.namespace(), lq, wait); // admitted once its checks are Ready
        }
        if (!a.admissionChecks().isEmpty()) {
            // a check's state written while this admission was on its way was not looked at: it is now
            s.requeue.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name()));
        }
        ownerJob(w.workload()).ifPresent(s.requeue);
    }

    private void evict(WorkloadKey key, Eviction e) {
        if (!evicting.add(key)) {
            return;
        }
        String message = preemptionMessage(e);
        Instant now = s.now();
        // where victim and preemptor queue, as the engine knows it now: by the time the write returns either may be gone
        String victimCq = s.engine.workload(key).map(WorkloadState::clusterQueue).orElse(null);
        String preemptorCq = e.preemptor() == null ? null
                : s.engine.workload(e.preemptor()).map(WorkloadState::clusterQueue).orElse(null);
        Workload cached = ClusterCache.get(s.cache.workloads, key.namespace(), key.name());
        // a Workload created directly has no job to stop: its quota is released in the same write
        boolean release = cached != null && ownerJob(cached).isEmpty();
        s.lanes.execute(key, () -> {
            Writes.Written w = writeNow(key, x -> {
                if (WorkloadConditions.isTrue(x, WorkloadConditions.FINISHED)) {
                    return x; // its job finished first (the quota is freed by the Finished write): nothing to evict
                }
                AdmissionCheckSync.onEviction(x, now);
                Workload evicted = podsReady.onEviction(WorkloadConditions.evict(x, e.reason().name(),
                        e.preemptionReason() == null ? null : e.preemptionReason().name(), message, now), e);
                return release ? WorkloadConditions.requeue(evicted, now) : evicted;
            });
            s.onEngine.accept(() -> evicted(key, e, message, w, victimCq, preemptorCq));
        });
    }

    private void evicted(WorkloadKey key, Eviction e, String message, Writes.Written w, String victimCq,
            String preemptorCq) {
        evicting.remove(key);
        if (w == null) {
            s.retry.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name()));
            return;
        }
        unwrittenEvictions.remove(key, e);
        if (w.gone()) {
            podsReady.evictionWritten(key);
            s.engine.delete(key);
            return;
        }
        Workload wl = w.workload();
        if (w.changed()) {
            recordEviction(key, e, message, wl, victimCq, preemptorCq);
        }
        podsReady.evictionWritten(key);
        // the next step even when an earlier attempt already wrote it (its answer lost): nothing may stay evicting
        Optional<Ref> job = ownerJob(wl);
        if (job.isPresent()) {
            s.requeue.accept(job.get());
        } else if (WorkloadConditions.hasReservation(wl)) {
            requeue(wl); // a Workload created directly has no job to stop
        } else {
            requeued(key, w); // released in the eviction's write
        }
    }

    /** The eviction's event and meters. */
    private void recordEviction(WorkloadKey key, Eviction e, String message, Workload wl, String victimCq,
            String preemptorCq) {
        // the engine knew where the victim held quota when it decided, even if the written status no longer says so
        String cq = Optional.ofNullable(victimCq)
                .or(() -> Optional.ofNullable(wl.getStatus() == null || wl.getStatus().getAdmission() == null ? null
                        : wl.getStatus().getAdmission().getClusterQueue()))
                .orElse(null);
        String eventMessage = message;
        if (e.preemptor() != null) {
            eventMessage = message + "; preempted by Workload " + e.preemptor();
            String preemptingCq = preemptorCq != null ? preemptorCq : cq;
            if (preemptingCq != null) {
                s.metrics.preempted(preemptingCq,
                        e.preemptionReason() == null ? e.reason().name() : e.preemptionReason().name());
            } else {
                LOG.debugf("preemption of %s not counted: neither its nor its preemptor's ClusterQueue is known", key);
            }
        }
        Condition written = WorkloadConditions.find(wl, WorkloadConditions.EVICTED);
        String writtenReason = written == null ? e.reason().name() : written.getReason();
        if (e.reason() == EvictionReason.InactiveWorkload && written != null && written.getMessage() != null) {
            // Kueue's event says what the condition says: "... deactivated due to exceeding ..." for a target's
            eventMessage = written.getMessage();
        }
        s.events.preempted(wl, e.reason() == EvictionReason.Preempted ? "Preempted"
                : PodsReadySync.eventReason(writtenReason), eventMessage, e.preemptor());
        if (cq != null) {
            // Kueue v0.19's labels: reason Deactivated (not Sluice's InactiveWorkload), with its underlying cause
            String reason = PodsReadySync.metricReason(e);
            String cause = podsReady.underlyingCause(e, writtenReason);
            s.metrics.evicted(cq, reason, cause);
            Condition ready = WorkloadConditions.find(wl, dev.sluice.readiness.PodsReadyRules.CONDITION);
            if (ready != null && "True".equals(ready.getStatus()) && written != null) {
                s.metrics.evictedAfterReady(cq, reason, cause,
                        Math.max(0, millis(written.getLastTransitionTime()) - millis(ready.getLastTransitionTime()))
                                / 1000.0);
            }
        }
    }

    /** Kueue's message, with the preemptor's job uid filled in from its Workload. */
    private String preemptionMessage(Eviction e) {
        if (e.preemptor() == null || e.message() == null) {
            return e.message();
        }
        Workload preemptor = ClusterCache.get(s.cache.workloads, e.preemptor().namespace(), e.preemptor().name());
        String jobUid = preemptor == null || preemptor.getMetadata().getLabels() == null ? null
                : preemptor.getMetadata().getLabels().get(WellKnown.JOB_UID);
        return jobUid == null ? e.message() : e.message().replace("JobUID: UNKNOWN", "JobUID: " + jobUid);
    }

    /** The evicted workload's job is stopped: release the reservation and queue the workload again. */
    void requeue(Workload wl) {
        WorkloadKey key = EngineWorkloads.key(wl);
        if (!requeueing.add(key)) {
            return;
        }
        Instant now = s.now();
        s.lanes.execute(key, () -> {
            Writes.Written w = writeNow(key, x -> WorkloadConditions.requeue(x, now));
            s.onEngine.accept(() -> requeued(key, w));
        });
    }

    private void requeued(WorkloadKey key, Writes.Written w) {
        requeueing.remove(key);
        if (w == null) {
            s.retry.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name()));
            return;
        }
        if (w.gone() || WorkloadConditions.hasReservation(w.workload())) {
            return;
        }
        Optional<WorkloadState> state = s.engine.workload(key);
        Condition requeuedCond = WorkloadConditions.find(w.workload(), WorkloadConditions.REQUEUED);
        if (state.isPresent() && requeuedCond != null && "False".equals(requeuedCond.getStatus())) {
            // timed out (it waits out its backoff) or deactivated: queued afresh when it may be, see PodsReadySync
            s.engine.delete(key);
        } else if (state.isPresent() && state.get().phase() == WorkloadPhase.EVICTING) {
            s.engine.evictionDone(key, s.nowMillis());
        } else if (state.isPresent() && state.get().phase() == WorkloadPhase.ADMITTED) {
            // evicted in an earlier run: the restored admission is released and the workload queued afresh
            s.engine.delete(key);
        }
        s.requeue.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name()));
    }

    /**
     * On a lane, then on the engine thread: a status change of the Workload (latest cached copy); {@code then} gets
     * the outcome (null when the write failed).
     */
    void writeStatus(WorkloadKey key, UnaryOperator<Workload> change, java.util.function.Consumer<Writes.Written> then) {
        s.lanes.execute(key, () -> {
            Writes.Written w = writeNow(key, change);
            s.onEngine.accept(() -> then.accept(w));
        });
    }

    /** The engine's Workload finished: its run, if it was admitted, is told to the forecast. */
    private void finished(WorkloadState state, long finishedAtMillis) {
        if (state.admittedAtMillis() != null) {
            WorkloadSpec spec = state.spec();
            s.finishedRuns.add(spec.key().namespace(), spec.queueName(), spec.priority(), state.admittedAtMillis(),
                    finishedAtMillis);
        }
    }

    /**
     * The job finished (or could not start): the Workload is made Finished, and its quota is released once that write
     * is stored, not before. The Workload's status is the record of admission: released earlier, the quota could go
     * to an admission whose write (on another lane) the API server stores first, and the stored records would be over
     * quota until the Finished write lands (for good, if the controller dies between the two). Kueue frees it the
     * same way, once the Workload in its cache is Finished.
     */
    void finish(Workload wl, String reason, String message) {
        WorkloadKey key = EngineWorkloads.key(wl);
        unwrittenAdmissions.remove(key);
        unwrittenEvictions.remove(key);
        pendingWrites.forget(key);
        if (!finishing.add(key)) {
            return; // its write is on the way
        }
        Instant now = s.now();
        s.lanes.execute(key, () -> {
            Writes.Written w = writeNow(key, x -> WorkloadConditions.finish(x, reason, message, now));
            if (w != null && w.changed()) {
                s.events.normal(w.workload(), "Finished", message);
            }
            s.onEngine.accept(() -> finishWritten(key, reason, now, w));
        });
    }

    /** On the engine thread: the Finished write's outcome; only a stored Finished (or a gone Workload) frees quota. */
    private void finishWritten(WorkloadKey key, String reason, Instant finishedAt, Writes.Written w) {
        finishing.remove(key);
        if (w == null) {
            // not stored: the quota stays held; the Workload's retry brings its job back, which finishes it again
            s.retry.accept(new Ref(Ref.WORKLOAD, key.namespace(), key.name()));
            return;
        }
        if (!w.gone() && w.changed() && "Failed".equals(reason)) {
            s.metrics.workloadFailed(key.namespace(), key.name(), finishedAt);
        }
        Optional<WorkloadState> known = s.engine.workload(key);
        if (known.isPresent()) {
            if (!w.gone()) {
                finished(known.get(), finishedAt.toEpochMilli());
            }
            s.engine.finish(key);
            s.metrics.workloadFinished(key.namespace(), key.name(), s.now());
        }
    }

    /**
     * On a lane: writes a status change on the latest cached copy of the Workload. Null when the write failed (the
     * caller has it retried); a Written with no Workload when the Workload is gone.
     */
    private Writes.Written writeNow(WorkloadKey key, UnaryOperator<Workload> change) {
        Workload cached = ClusterCache.get(s.cache.workloads, key.namespace(), key.name());
        if (cached == null) {
            return new Writes.Written(null, false);
        }
        String cachedVersion = cached.getMetadata().getResourceVersion();
        LastWrite last = lastWrites.get(key);
        Workload base = last != null && last.cachedVersion().equals(cachedVersion) ? last.written() : cached;
        try {
            Writes.Written w = s.writes.workloadStatus(base, change);
            if (w.changed() && w.workload() != null) {
                lastWrites.put(key, new LastWrite(cachedVersion, w.workload()));
            }
            return w;
        } catch (KubernetesClientException e) {
            s.failures.failed(cached, "workloads/status", "patch", "write the status of Workload " + key, e);
            return null;
        }
    }

    /**
     * A write of the Workload's job was refused ({@code message}; null: a later write went through): condition
     * {@link WorkloadConditions#WRITE_FAILED} says so on the Workload, where {@code kubectl describe} shows it.
     */
    void writeFailed(Workload wl, String message) {
        WorkloadKey key = EngineWorkloads.key(wl);
        Instant now = s.now();
        s.lanes.execute(key, () -> {
            if (writeNow(key, x -> WorkloadConditions.writeFailed(x, message, now)) == null) {
                LOG.debugf("condition %s of Workload %s not written", WorkloadConditions.WRITE_FAILED, key);
            }
        });
    }

    /** On a lane: one pending status (see {@link PendingStatusWrites}); false to try again later. */
    private boolean writePending(PendingStatus p) {
        Instant now = s.now();
        return writeNow(p.workload(),
                x -> WorkloadConditions.pending(x, p.unadmittedReason().name(), p.message(), now)) != null;
    }

    static long queuedAtMillis(Workload wl) {
        Condition requeued = WorkloadConditions.find(wl, WorkloadConditions.REQUEUED);
        if (requeued != null && "True".equals(requeued.getStatus())) {
            return millis(requeued.getLastTransitionTime());
        }
        return EngineWorkloads.createdMillis(wl);
    }

    static long millis(String timestamp) {
        if (timestamp == null) {
            return 0L;
        }
        try {
            return Instant.parse(timestamp).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0L;
        }
    }
}
