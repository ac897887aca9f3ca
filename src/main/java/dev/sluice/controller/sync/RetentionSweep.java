package dev.sluice.controller.sync;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.session.Session;
import dev.sluice.controller.session.WorkloadRetention;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.Writes;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadState;
import dev.sluice.jobs.JobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Deletes what the {@link WorkloadRetention} policy names, once its time has come (engine thread). Each Workload seen
 * is looked at once per change; one the policy names waits here by due time (a key and an instant, not the object),
 * and is looked at again in the cache when due. Deletes carry the resourceVersion they were decided on as a
 * precondition, so a Workload that changed meanwhile (or was replaced under the same name) is not deleted: its next
 * event decides again. A Workload that holds quota (the engine counts it as admitted or being evicted, or it has an
 * admission and is not finished) is never deleted.
 */
final class RetentionSweep {

    private static final Logger LOG = Logger.getLogger(RetentionSweep.class);

    private record Due(long atMillis, WorkloadKey key) {
    }

    private final Session s;
    private final WorkloadRetention policy;
    private final Function<Workload, Optional<Ref>> ownerJob;
    private final PriorityQueue<Due> queue = new PriorityQueue<>((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
    /** The due time of each Workload waiting (entries in the queue with another time are stale). */
    private final Map<WorkloadKey, Long> due = new HashMap<>();
    private final java.util.concurrent.atomic.AtomicLong deleted = new java.util.concurrent.atomic.AtomicLong();

    RetentionSweep(Session s, WorkloadRetention policy, Function<Workload, Optional<Ref>> ownerJob) {
        this.s = s;
        this.policy = policy;
        this.ownerJob = ownerJob;
    }

    /** The Workload changed (or was listed): whether and when the policy deletes it. */
    void observe(WorkloadKey key, Workload wl) {
        if (!policy.enabled()) {
            return;
        }
        Optional<WorkloadRetention.Expiry> expiry = policy.expiry(wl);
        if (expiry.isEmpty()) {
            due.remove(key);
            return;
        }
        long at = expiry.get().at().toEpochMilli();
        Long before = due.put(key, at);
        if (before == null || before != at) {
            queue.add(new Due(at, key));
        }
    }

    void forget(WorkloadKey key) {
        due.remove(key);
    }

    /** Workloads waiting to be deleted. */
    int waiting() {
        return due.size();
    }

    /** Deletes everything due by now; from the engine loop, every pass and now and then when idle. */
    void sweep() {
        long now = s.nowMillis();
        while (!queue.isEmpty() && queue.peek().atMillis() <= now) {
            Due d = queue.poll();
            Long current = due.get(d.key());
            if (current == null || current != d.atMillis()) {
                continue; // changed since: decided again when it was seen
            }
            due.remove(d.key());
            Workload wl = ClusterCache.get(s.cache.workloads, d.key().namespace(), d.key().name());
            if (wl == null) {
                continue;
            }
            Optional<WorkloadRetention.Expiry> expiry = policy.expiry(wl);
            if (expiry.isEmpty() || expiry.get().at().toEpochMilli() > now || holdsQuota(d.key(), wl)) {
                observe(d.key(), wl); // not (or no longer, or not yet) named: kept, and looked at when it changes
                continue;
            }
            delete(d.key(), wl, expiry.get().cause());
        }
    }

    private boolean holdsQuota(WorkloadKey key, Workload wl) {
        return WorkloadRetention.holdsQuota(wl, s.engine.workload(key).map(WorkloadState::phase));
    }

    private void delete(WorkloadKey key, Workload wl, WorkloadRetention.Cause cause) {
        Optional<Ref> owner = cause == WorkloadRetention.Cause.DEACTIVATED_BY_KUEUE ? ownerJob.apply(wl) : Optional.empty();
        if (owner.isPresent()) {
            deleteJob(key, owner.get());
            return;
        }
        String version = wl.getMetadata().getResourceVersion();
        s.lanes.execute(key, () -> {
            try {
                s.writes.deleteWorkload(key.namespace(), key.name(), version);
                deleted.incrementAndGet();
                s.events.normal(wl, "Deleted", cause == WorkloadRetention.Cause.FINISHED
                        ? "Deleted finished workload due to elapsed retention"
                        : "Deleted deactivated workload due to elapsed retention");
            } catch (KubernetesClientException e) {
                refused("Workload " + key, e);
            }
        });
    }

    /** Kueue deletes the job of a deactivated Workload (the Workload goes with it), so no new Workload is made for it. */
    private void deleteJob(WorkloadKey key, Ref job) {
        for (JobKind kind : s.kinds.all()) {
            if (!ClusterCache.typeOf(kind).equals(job.type()) || !s.cache.jobs.containsKey(kind)) {
                continue;
            }
            GenericKubernetesResource cached = ClusterCache.get(s.cache.jobs.get(kind), job.namespace(), job.name());
            if (cached == null) {
                return; // gone already: the Workload goes with it (garbage collection)
            }
            String version = cached.getMetadata().getResourceVersion();
            s.lanes.execute(key, () -> {
                try {
                    s.writes.deleteJob(kind, job.namespace(), job.name(), version);
                    deleted.incrementAndGet();
                    s.events.normal(cached, "Deleted", "Deleted job: deactivation retention period expired");
                } catch (KubernetesClientException e) {
                    refused(kind.kind() + " " + job.namespace() + "/" + job.name(), e);
                }
            });
            return;
        }
    }

    private void refused(String what, KubernetesClientException e) {
        if (Writes.isConflict(e) || e.getCode() == 404) {
            return; // changed or gone since the decision: its next event decides again
        }
        s.metrics.writeFailed(what.startsWith("Workload") ? "workloads" : "jobs", "delete", e.getCode());
        LOG.warnf("retention: deleting %s failed: %s", what, WriteFailures.describe(e));
    }

    /** Deletes made so far (from the lanes). */
    long deleted() {
        return deleted.get();
    }

}
