package dev.sluice.controller.sync;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.RequeueState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.conditions.AdmissionCheckStates;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.session.Session;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.EvictionReason;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.readiness.PodsReadyRules;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.jboss.logging.Logger;

/**
 * A reserved Workload's admission checks, as Kueue v0.19.2's workload controller follows them: status.admissionChecks
 * kept in step with its ClusterQueue (reconcileSyncAdmissionChecks), Admitted once every check is Ready
 * (SyncAdmittedCondition), a Retry evicts it (reason AdmissionCheck; queued again after the requeueAt its checks ask
 * for) and a Rejected deactivates it (DeactivationTarget, then spec.active false) (reconcileCheckBasedEviction). The
 * check controllers write the states; this class only reads them, on the engine thread, and queues the writes.
 */
final class AdmissionCheckSync {

    private static final Logger LOG = Logger.getLogger(AdmissionCheckSync.class);

    private final Session s;
    private final WorkloadSync workloads;
    /** Workloads whose check-driven status write is on a lane now: not decided again meanwhile. */
    private final Set<WorkloadKey> writing = new HashSet<>();

    AdmissionCheckSync(Session session, WorkloadSync workloads) {
        this.s = session;
        this.workloads = workloads;
    }

    /** The Workload's checks in the engine's words. */
    static Map<String, dev.sluice.engine.CheckState> engineStates(Workload wl) {
        return dev.sluice.bridge.EngineRebuild.checkStates(wl);
    }

    /**
     * A Workload waiting in a ClusterQueue changed: it lists the queue's checks for every flavor (Pending), as Kueue's
     * workload controller does before any reservation; the states already there are kept.
     */
    void waiting(WorkloadKey key, Workload wl, String clusterQueue) {
        if (clusterQueue == null || WorkloadConditions.hasReservation(wl) || writing.contains(key)) {
            return;
        }
        List<String> needed = s.engine.admissionChecksFor(key);
        if (!new TreeSet<>(needed).equals(new TreeSet<>(AdmissionCheckStates.names(wl)))) {
            Instant now = s.now();
            writing.add(key);
            workloads.writeStatus(key, x -> {
                if (!WorkloadConditions.hasReservation(x)) {
                    AdmissionCheckStates.sync(x, needed, now);
                }
                return x;
            }, w -> {
                writing.remove(key);
                if (w == null) {
                    s.retry.accept(ref(key));
                } else {
                    s.requeue.accept(ref(key)); // a check's write handled while ours was on its way is looked at now
                }
            });
        }
    }

    /**
     * A Workload the engine counts as holding quota changed. True when its checks decided something (a write or an
     * eviction); the caller then does nothing else with it.
     */
    boolean reserved(WorkloadKey key, Workload wl, WorkloadSpec spec) {
        if (!WorkloadConditions.hasReservation(wl) || WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED)
                || WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED) || writing.contains(key)) {
            return false;
        }
        String cq = wl.getStatus().getAdmission() == null ? null : wl.getStatus().getAdmission().getClusterQueue();
        if (cq == null || dev.sluice.controller.cache.ClusterCache.get(s.cache.clusterQueues, null, cq) == null) {
            return false; // Kueue's workload controller syncs the checks only while the ClusterQueue is known (cqOk)
        }
        List<String> needed = s.engine.admissionChecksFor(key);
        if (!new TreeSet<>(needed).equals(new TreeSet<>(AdmissionCheckStates.names(wl)))) {
            // a check added to or removed from the ClusterQueue: Kueue syncs the list, states already there kept
            write(key, x -> AdmissionCheckStates.sync(x, needed, s.now()), w -> { });
            return true;
        }
        s.engine.setAdmissionCheckStates(key, engineStates(wl));
        List<AdmissionCheckState> rejected = AdmissionCheckStates.inState(wl, CheckState.Rejected);
        if (!rejected.isEmpty()) {
            if (!spec.active() || WorkloadConditions.isTrue(wl, PodsReadyRules.DEACTIVATION_TARGET)) {
                return false; // deactivation under way
            }
            String message = AdmissionCheckStates.message(rejected, CheckState.Rejected);
            Instant now = s.now();
            write(key, x -> {
                x.getStatus().setConditions(Conditions.set(x.getStatus().getConditions(),
                        PodsReadyRules.DEACTIVATION_TARGET, true, AdmissionCheckStates.EVICTION_REASON, message,
                        x.getMetadata().getGeneration(), now));
                return true;
            }, w -> s.events.warning(w, AdmissionCheckStates.REJECTED_EVENT, "Deactivated due to " + message));
            return true;
        }
        List<AdmissionCheckState> retry = AdmissionCheckStates.inState(wl, CheckState.Retry);
        if (!retry.isEmpty()) {
            String message = "Evicted due to " + AdmissionCheckStates.message(retry, CheckState.Retry);
            Eviction e = s.engine.evict(key, EvictionReason.AdmissionCheck, message, s.nowMillis());
            if (e != null) {
                workloads.apply(new CycleResult(List.of(), List.of(e), List.of()));
                return true;
            }
            return false;
        }
        if (!WorkloadConditions.isTrue(wl, WorkloadConditions.ADMITTED) && AdmissionCheckStates.allReady(wl)) {
            Instant now = s.now();
            write(key, x -> AdmissionCheckStates.syncAdmitted(x, now), w -> admitted(key, w, now));
            return true;
        }
        return false;
    }

    /** Every check Ready and Admitted written: Kueue's event and meters. */
    private void admitted(WorkloadKey key, Workload wl, Instant now) {
        String cq = wl.getStatus().getAdmission() == null ? null : wl.getStatus().getAdmission().getClusterQueue();
        Condition reserved = WorkloadConditions.find(wl, WorkloadConditions.QUOTA_RESERVED);
        double sinceReserved = reserved == null ? 0
                : Math.max(0, (now.toEpochMilli() - WorkloadSync.millis(reserved.getLastTransitionTime())) / 1000.0);
        double sinceQueued = Math.max(0, (now.toEpochMilli() - WorkloadSync.queuedAtMillis(wl)) / 1000.0);
        s.events.normal(wl, "Admitted", String.format("Admitted by ClusterQueue %s, wait time since reservation was %.0fs",
                cq, sinceReserved));
        if (cq != null) {
            s.metrics.admitted(cq, sinceQueued);
            s.metrics.admissionChecksWaited(cq, sinceReserved);
        }
        String lq = wl.getSpec().getQueueName();
        if (lq != null) {
            s.metrics.localQueueAdmittedAfterChecks(key.namespace(), lq, sinceQueued, sinceReserved);
        }
        LOG.debugf("Workload %s admitted: every admission check is Ready", key);
    }

    /**
     * Added to every eviction's status write, as Kueue's eviction does: the latest retry time its Retry checks ask for
     * becomes requeueState.requeueAt (NeedsRequeueAtUpdate; never earlier than one already set), then every check goes
     * back to Pending (resetChecksOnEviction).
     */
    static void onEviction(Workload wl, Instant now) {
        if (wl.getStatus() == null) {
            return;
        }
        OptionalLong retryAt = AdmissionCheckStates.maxRetryTimeMillis(wl);
        if (retryAt.isPresent() && retryAt.getAsLong() > now.toEpochMilli()) {
            RequeueState rs = wl.getStatus().getRequeueState() == null ? new RequeueState()
                    : wl.getStatus().getRequeueState();
            long current = rs.getRequeueAt() == null ? 0 : WorkloadSync.millis(rs.getRequeueAt());
            if (current < retryAt.getAsLong()) {
                rs.setRequeueAt(Instant.ofEpochMilli(retryAt.getAsLong()).toString());
            }
            wl.getStatus().setRequeueState(rs);
        }
        AdmissionCheckStates.resetOnEviction(wl, now);
    }

    private static dev.sluice.controller.cache.Ref ref(WorkloadKey key) {
        return new dev.sluice.controller.cache.Ref(dev.sluice.controller.cache.Ref.WORKLOAD, key.namespace(), key.name());
    }

    private interface Change {
        boolean apply(Workload wl);
    }

    /** A status write on the Workload's lane; {@code then} runs on the engine thread with what was written. */
    private void write(WorkloadKey key, Change change, java.util.function.Consumer<Workload> then) {
        writing.add(key);
        workloads.writeStatus(key, x -> {
            if (WorkloadConditions.hasReservation(x) && !WorkloadConditions.isTrue(x, WorkloadConditions.EVICTED)) {
                change.apply(x);
            }
            return x;
        }, w -> {
            writing.remove(key);
            if (w == null) {
                s.retry.accept(ref(key));
                return;
            }
            if (w.changed() && w.workload() != null) {
                then.accept(w.workload());
            }
            s.requeue.accept(ref(key)); // a check's write handled while ours was on its way is looked at now
        });
    }
}
