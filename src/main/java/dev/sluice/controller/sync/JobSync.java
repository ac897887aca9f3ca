package dev.sluice.controller.sync;

import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.JobWorkloads;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.session.Session;
import dev.sluice.controller.store.InvalidJobWorkloads;
import dev.sluice.controller.store.WorkloadStore;
import dev.sluice.controller.write.JobWrites;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.Writes;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobFinish;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.PodSetStart;
import dev.sluice.jobs.PodSetTemplate;
import dev.sluice.jobs.StartConflictException;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * One queued job and its Workload, for any {@link JobKind}: creates the Workload, starts the job when the Workload
 * is admitted, stops it (suspended, templates restored) when it is not, finishes the Workload when the job ends and
 * deletes it when the job is gone.
 */
final class JobSync {

    private static final Logger LOG = Logger.getLogger(JobSync.class);

    private final Session s;
    private final WorkloadSync workloads;
    /** Jobs whose Workload could not be built (e.g. a priority class is missing), with the reported problem. */
    private final Map<Ref, String> blocked = new HashMap<>();
    /**
     * The resourceVersion each job's last successful write was based on: while the cache still shows that version
     * our own write has not come back yet, and acting on it again would only fail the precondition.
     */
    private final Map<Ref, String> actedOn = new HashMap<>();
    /** Jobs whose last write was refused and whose Workload says so (condition WriteFailed). */
    private final Set<Ref> failing = new HashSet<>();
    /** Jobs held the ack-kube-queue way in a namespace without LocalQueue default (warned about once). */
    private final Set<Ref> waitingForDefault = new HashSet<>();
    static final String DEFAULT_QUEUE = "default";

    JobSync(Session session, WorkloadSync workloads) {
        this.s = session;
        this.workloads = workloads;
    }

    /** A priority class appeared or changed: jobs that waited for one try again. */
    Set<Ref> blockedJobs() {
        return new HashSet<>(blocked.keySet());
    }

    void handle(JobKind kind, Ref ref) {
        var informer = s.cache.jobs.get(kind);
        if (informer == null) {
            return; // the cluster does not serve this kind: its Workloads are left alone, not taken for orphans
        }
        GenericKubernetesResource job = ClusterCache.get(informer, ref.namespace(), ref.name());
        if (job == null || job.getMetadata().getDeletionTimestamp() != null) {
            actedOn.remove(ref);
            waitingForDefault.remove(ref);
            s.workloadGoneFor.remove(ref);
            gone(ref);
            return;
        }
        String version = job.getMetadata().getResourceVersion();
        if (version != null && version.equals(actedOn.get(ref))) {
            return; // stale: the event of our own write will bring this job back
        }
        actedOn.remove(ref);
        String name = JobWorkloads.workloadName(kind, job);
        Workload wl = ClusterCache.get(s.cache.workloads, ref.namespace(), name);
        String queue = queueOf(kind, ref, job, wl);
        if (queue == null) {
            blocked.remove(ref);
            return; // not queued by Sluice
        }
        if (wl == null) {
            if (workloads.deletionPending(new dev.sluice.engine.WorkloadKey(ref.namespace(), name))) {
                // the cache lost the Workload before its delete event was handled (e.g. the garbage collector's,
                // racing the job's own deletion): that event marks the job and brings it back, to be asked about
                return;
            }
            create(kind, ref, job, queue);
            return;
        }
        if (InvalidJobWorkloads.isPlaceholder(wl)) {
            replaceIfValid(kind, job, wl);
            return;
        }
        Optional<JobFinish> finish = kind.finished(job);
        if (finish.isPresent()) {
            if (!WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)) {
                JobFinish f = finish.get();
                String message = f.message() == null || f.message().isEmpty()
                        ? (f.succeeded() ? "Job finished successfully" : "Job failed") : f.message();
                workloads.finish(wl, f.succeeded() ? "Succeeded" : "Failed", message);
            }
            return;
        }
        boolean suspended = kind.isSuspended(job);
        if (suspended && stopping(job)) {
            finishStop(kind, job, wl); // the second write of a stop, whatever the Workload says now
            return;
        }
        if (WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)) {
            return; // e.g. FailedToStart: the job stays suspended
        }
        if (suspended && !WorkloadConditions.hasReservation(wl) && outOfDate(kind, job, wl)) {
            return;
        }
        if (WorkloadConditions.mayRun(wl)) {
            if (suspended) {
                start(kind, job, wl);
            } else {
                // running (perhaps since before a restart): the availability meters know it from its admission on;
                // for a workload they already track as running this changes nothing
                var admitted = WorkloadConditions.find(wl, WorkloadConditions.ADMITTED);
                s.metrics.workloadStarted(wl.getMetadata().getNamespace(), wl.getMetadata().getName(),
                        java.time.Instant.ofEpochMilli(WorkloadSync.millis(admitted.getLastTransitionTime())));
                workloads.podsReady().job(kind, job, wl); // PodsReady follows the job's status
            }
            return;
        }
        if (!suspended) {
            stop(kind, job, wl);
            return;
        }
        if (WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED) && WorkloadConditions.hasReservation(wl)
                && !kind.isActive(job)) {
            workloads.requeue(wl); // stopped and restored: the quota is released
        }
    }

    static boolean stopping(GenericKubernetesResource job) {
        var annotations = job.getMetadata().getAnnotations();
        return annotations != null && "true".equals(annotations.get(WellKnown.STOPPING));
    }

    /**
     * A waiting job changed what it asks for (pod sets, queue, priority): its Workload no longer stands for it and
     * is replaced, as Kueue does. True when the Workload was deleted (the new one follows on the delete event).
     */
    private boolean outOfDate(JobKind kind, GenericKubernetesResource job, Workload wl) {
        WorkloadStore.Derived current = s.cache.workloadStore.derived(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
        if (current == null || current.spec() == null) {
            return false;
        }
        WorkloadSpec wanted;
        try {
            Workload want = JobWorkloads.forJob(kind, job, s.priorityClasses);
            want.getSpec().setQueueName(queueOf(kind, new Ref(ClusterCache.typeOf(kind),
                    job.getMetadata().getNamespace(), job.getMetadata().getName()), job, wl));
            wanted = EngineWorkloads.toEngine(want, 0);
        } catch (InvalidObjectException | InvalidJobException | IllegalArgumentException e) {
            return false; // reported when a Workload has to be created
        }
        WorkloadSpec have = current.spec();
        if (Objects.equals(wanted.queueName(), have.queueName()) && wanted.priority() == have.priority()
                && wanted.podSets().equals(have.podSets())) {
            return false;
        }
        var key = EngineWorkloads.key(wl);
        try {
            s.writes.deleteWorkload(wl);
        } catch (KubernetesClientException e) {
            if (!Writes.isNotFound(e)) {
                s.failures.failed(wl, "workloads", "delete", "replace Workload " + key + " of the changed "
                        + kind.kind() + " " + job.getMetadata().getName(), e);
            }
            return false;
        }
        s.engine.delete(key);
        s.events.normal(job, "UpdatedWorkload", kind.kind() + " changed while waiting; its Workload "
                + wl.getMetadata().getName() + " is replaced");
        return true;
    }

    private void gone(Ref ref) {
        blocked.remove(ref);
        for (Workload wl : s.cache.workloadsOwnedBy(ref.type(), ref.namespace(), ref.name())) {
            // delete it now rather than wait for the garbage collector; its quota is released once the delete is
            // answered (the stored admission is gone then), never while a refused delete leaves it stored
            var key = EngineWorkloads.key(wl);
            try {
                s.writes.deleteWorkload(wl);
            } catch (KubernetesClientException e) {
                if (!Writes.isNotFound(e)) {
                    s.failures.failed(wl, "workloads", "delete", "delete Workload " + key + " of the deleted "
                            + ref.type() + " " + ref.name(), e);
                    s.retry.accept(ref);
                    continue;
                }
            }
            if (s.engine.workload(key).isPresent()) {
                s.engine.delete(key);
                s.metrics.workloadFinished(key.namespace(), key.name(), s.now());
            }
        }
    }

    /**
     * The LocalQueue the job waits in, or null when Sluice leaves it alone: its queue label; else, once it has a
     * Workload, that Workload's queue (a job queued the ack-kube-queue way keeps it after start releases the hold);
     * else, with {@code sluice.kube-queue-compat} on and the job held the ack-kube-queue way, LocalQueue
     * {@code default} of its namespace if there is one. Without one the job stays held, with one Warning event, and
     * is looked at again when LocalQueues change.
     */
    private String queueOf(JobKind kind, Ref ref, GenericKubernetesResource job, Workload wl) {
        if (s.kinds.controlledByOneOf(job)) {
            return null; // the RayCluster of a queued RayJob: that RayJob's Workload stands for it
        }
        String label = JobWorkloads.queueName(job);
        if (label != null && !label.isEmpty()) {
            waitingForDefault.remove(ref);
            return label;
        }
        if (wl != null && wl.getSpec() != null && wl.getSpec().getQueueName() != null) {
            return wl.getSpec().getQueueName();
        }
        if (!s.kubeQueueCompat || !kind.heldTheAckWay(job)) {
            waitingForDefault.remove(ref);
            return null;
        }
        if (ClusterCache.get(s.cache.localQueues, ref.namespace(), DEFAULT_QUEUE) != null) {
            waitingForDefault.remove(ref);
            return DEFAULT_QUEUE;
        }
        if (waitingForDefault.add(ref)) {
            s.events.warning(job, "NoDefaultLocalQueue", kind.kind() + " is held the ack-kube-queue way but namespace "
                    + ref.namespace() + " has no LocalQueue " + DEFAULT_QUEUE + "; it stays held: create LocalQueue "
                    + DEFAULT_QUEUE + " in " + ref.namespace() + " or add the label " + WellKnown.QUEUE_NAME
                    + " naming a LocalQueue");
        }
        return null;
    }

    /** Jobs held the ack-kube-queue way that wait for their namespace's LocalQueue default. */
    Set<Ref> waitingForDefault() {
        return new HashSet<>(waitingForDefault);
    }

    /**
     * The job's Workload stands for a manifest that could not be read; when the job is fixed, or wrong in another way,
     * the Workload is replaced.
     */
    private void replaceIfValid(JobKind kind, GenericKubernetesResource job, Workload wl) {
        String problem = InvalidJobWorkloads.problem(wl);
        holdIfRunning(kind, job, "cannot be queued: " + problem);
        String now = null;
        try {
            kind.podSets(job);
        } catch (InvalidJobException | IllegalArgumentException stillBad) {
            now = stillBad.getMessage();
            if (Objects.equals(now, problem)) {
                return;
            }
        }
        try {
            s.writes.deleteWorkload(wl); // the delete event brings the job back for its new Workload
            s.events.normal(job, "UpdatedWorkload", kind.kind() + (now == null ? " is valid now" : " changed")
                    + "; its Workload " + wl.getMetadata().getName() + " is replaced");
        } catch (KubernetesClientException e) {
            if (!Writes.isNotFound(e)) {
                s.failures.failed(wl, "workloads", "delete", "replace Workload " + wl.getMetadata().getName()
                        + " of the fixed " + kind.kind() + " " + job.getMetadata().getName(), e);
            }
            s.retry.accept(new Ref(ClusterCache.typeOf(kind), job.getMetadata().getNamespace(), job.getMetadata().getName()));
        }
    }

    private void create(JobKind kind, Ref ref, GenericKubernetesResource job, String queue) {
        if (kind.finished(job).isPresent()) {
            return; // a job that ended before it was queued needs no Workload
        }
        if (s.workloadGoneFor.contains(ref)) {
            if (!stillThere(kind, job)) {
                return; // deleted: its Workload went first (the garbage collector); the job's delete event follows
            }
            s.workloadGoneFor.remove(ref);
        }
        Workload wl;
        try {
            wl = JobWorkloads.forJob(kind, job, s.priorityClasses);
            wl.getSpec().setQueueName(queue);
        } catch (InvalidJobException e) {
            // the manifest says too little to queue it (e.g. an Argo Workflow without kube-queue/min-resources):
            // a Workload that is never admitted shows why, where people look for it
            blocked.remove(ref);
            s.events.warning(job, "CreatedWorkloadFailed", e.getMessage());
            holdIfRunning(kind, job, "cannot be queued: " + e.getMessage());
            createWorkload(ref, job, InvalidJobWorkloads.placeholder(kind, job, queue, e.getMessage()));
            return;
        } catch (InvalidObjectException e) {
            if (!Objects.equals(blocked.put(ref, e.getMessage()), e.getMessage())) {
                s.events.warning(job, "CreatedWorkloadFailed", e.getMessage());
            }
            holdIfRunning(kind, job, "cannot be queued: " + e.getMessage());
            return;
        }
        blocked.remove(ref);
        if (!kind.isSuspended(job)) {
            holdIfRunning(kind, job, "is queued in LocalQueue " + queue + " and waits for admission");
        }
        createWorkload(ref, job, wl);
    }

    /**
     * The job's Workload was deleted while the cache still shows the job: asks the API server whether the job is still
     * there (the same uid, not being deleted), so a job deleted a moment ago does not get a new Workload.
     */
    private boolean stillThere(JobKind kind, GenericKubernetesResource job) {
        try {
            GenericKubernetesResource live = s.writes.readJob(kind, job.getMetadata().getNamespace(),
                    job.getMetadata().getName());
            return live != null && Objects.equals(live.getMetadata().getUid(), job.getMetadata().getUid())
                    && live.getMetadata().getDeletionTimestamp() == null;
        } catch (KubernetesClientException e) {
            return true; // cannot tell: go on as the cache says
        }
    }

    private void createWorkload(Ref ref, GenericKubernetesResource job, Workload wl) {
        try {
            Workload created = s.writes.createWorkload(wl);
            s.events.normal(job, "CreatedWorkload", "Created Workload: " + created.getMetadata().getNamespace() + "/"
                    + created.getMetadata().getName());
        } catch (KubernetesClientException e) {
            if (!Writes.isConflict(e)) {
                s.failures.failed(job, "workloads", "create", "create Workload " + wl.getMetadata().getNamespace() + "/"
                        + wl.getMetadata().getName() + " for " + job.getKind() + " " + ref.name(), e);
                s.retry.accept(ref);
            }
        }
    }

    private void holdIfRunning(JobKind kind, GenericKubernetesResource job, String why) {
        if (kind.isSuspended(job)) {
            return;
        }
        GenericKubernetesResource next = Serialization.clone(job);
        kind.hold(next);
        if (patch(kind, job, next, null, "suspend")) {
            s.events.normal(job, "Suspended", kind.kind() + " " + why + "; suspended");
        }
    }

    /** Admitted: the flavors' node labels and tolerations into the templates, the podset label, then unsuspend. */
    private void start(JobKind kind, GenericKubernetesResource job, Workload wl) {
        var admission = wl.getStatus().getAdmission();
        List<PodSetStart> starts = new ArrayList<>();
        Map<String, PodSetAssignment> byName = new LinkedHashMap<>();
        for (PodSetAssignment psa : admission.getPodSetAssignments()) {
            byName.put(psa.getName(), psa);
        }
        List<WorkloadStore.PodSetCount> podSets = s.cache.workloadStore.podSets(wl);
        if (podSets == null) { // removed from the cache meanwhile: as the API server has it
            Workload full;
            try {
                full = s.writes.readWorkload(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
            } catch (KubernetesClientException e) {
                s.retry.accept(new Ref(ClusterCache.typeOf(kind), job.getMetadata().getNamespace(),
                        job.getMetadata().getName()));
                return;
            }
            podSets = full == null ? null : WorkloadStore.podSetsOf(full);
            if (podSets == null) {
                return; // gone: its delete event follows
            }
        }
        for (WorkloadStore.PodSetCount ps : podSets) {
            PodSetAssignment psa = byName.get(ps.name());
            Map<String, String> nodeSelector = new LinkedHashMap<>();
            List<Toleration> tolerations = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            if (psa != null && psa.getFlavors() != null) {
                for (String flavorName : new java.util.TreeSet<>(psa.getFlavors().values())) {
                    if (!seen.add(flavorName)) {
                        continue;
                    }
                    ResourceFlavor flavor = ClusterCache.get(s.cache.flavors, null, flavorName);
                    if (flavor == null || flavor.getSpec() == null) {
                        continue;
                    }
                    if (flavor.getSpec().getNodeLabels() != null) {
                        nodeSelector.putAll(flavor.getSpec().getNodeLabels());
                    }
                    if (flavor.getSpec().getTolerations() != null) {
                        tolerations.addAll(flavor.getSpec().getTolerations());
                    }
                }
            }
            Integer count = psa == null || psa.getCount() == null || psa.getCount() == ps.count() ? null : psa.getCount();
            starts.add(dev.sluice.controller.tas.TasStart.withTopology(
                    new PodSetStart(ps.name(), nodeSelector, tolerations, count), wl.getMetadata().getName(),
                    psa != null && psa.getTopologyAssignment() != null, topologyRequest(wl, ps.name())));
        }
        GenericKubernetesResource next = Serialization.clone(job);
        try {
            // the admission checks' podSetUpdates, merged over the flavors' (a conflict fails the start, as Kueue)
            starts.replaceAll(st -> dev.sluice.bridge.PodSetUpdates.merge(st, wl));
            kind.start(next, starts);
        } catch (StartConflictException | IllegalArgumentException e) {
            // the flavor's node labels clash with the template, or the job no longer has the Workload's pod sets
            s.events.warning(job, "FailedToStart", e.getMessage());
            workloads.finish(wl, "FailedToStart", e.getMessage());
            return;
        }
        if (patch(kind, job, next, wl, "start")) {
            s.events.normal(job, "Started", "Admitted by clusterQueue " + admission.getClusterQueue());
            s.metrics.workloadStarted(wl.getMetadata().getNamespace(), wl.getMetadata().getName(), s.now());
        }
    }

    /** The pod set's topology request, from the Workload's engine form (null: none, or no engine form). */
    private dev.sluice.engine.tas.PodSetTopologyRequest topologyRequest(Workload wl, String podSet) {
        var derived = s.cache.workloadStore.derived(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
        if (derived == null || derived.spec() == null) {
            return null;
        }
        return derived.spec().podSets().stream().filter(p -> p.name().equals(podSet)).findFirst()
                .map(dev.sluice.engine.PodSetSpec::topologyRequest).orElse(null);
    }

    /**
     * Not (or no longer) admitted: the first write of a stop holds the job and marks it {@link WellKnown#STOPPING};
     * nothing else, because API servers refuse a template change on a running job (batch/v1 Job: 422 {@code
     * spec.template: field is immutable}). {@link #finishStop} puts the templates back once the job shows it is held.
     */
    private void stop(JobKind kind, GenericKubernetesResource job, Workload wl) {
        GenericKubernetesResource next = JobWrites.holdToStop(kind, job);
        if (!patch(kind, job, next, wl, "suspend")) {
            return;
        }
        if (WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED)) {
            var cond = WorkloadConditions.find(wl, WorkloadConditions.EVICTED);
            s.events.normal(job, "Stopped", cond.getMessage());
            s.metrics.workloadInterrupted(wl.getMetadata().getNamespace(), wl.getMetadata().getName(), s.now());
        } else {
            s.events.normal(job, "Stopped", "Not admitted by cluster queue: Workload " + wl.getMetadata().getName()
                    + " has no quota reservation, so the " + kind.kind() + " was suspended again");
        }
    }

    /**
     * The second write of a stop, on a job that is held: once the kind's API server accepts it ({@link
     * JobKind#restoreWait}; a Job's start time is cleared first), the templates are put back as the Workload recorded
     * them and the {@link WellKnown#STOPPING} mark is removed. Only then is an evicted Workload's quota released.
     */
    private void finishStop(JobKind kind, GenericKubernetesResource job, Workload wl) {
        Ref ref = new Ref(ClusterCache.typeOf(kind), job.getMetadata().getNamespace(), job.getMetadata().getName());
        var wait = kind.restoreWait(job);
        if (wait.isPresent()) {
            if (wait.get() == dev.sluice.jobs.RestoreWait.START_TIME) {
                clearStartTime(kind, job, wl, ref);
            }
            return; // active pods: the Job controller's status update brings the job back
        }
        // the cache keeps no pod templates: the originals are read from the Workload itself
        Workload full = null;
        if (wl != null) {
            try {
                full = s.writes.readWorkload(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
            } catch (KubernetesClientException e) {
                s.retry.accept(ref);
                return;
            }
        }
        List<PodSetTemplate> originals = null;
        if (full != null) {
            originals = new ArrayList<>();
            for (PodSet ps : full.getSpec().getPodSets()) {
                originals.add(new PodSetTemplate(ps.getName(), ps.getCount() == null ? 1 : ps.getCount(),
                        ps.getMinCount(), ps.getTemplate()));
            }
        }
        GenericKubernetesResource next;
        try {
            next = JobWrites.restoreAfterStop(kind, job, originals);
        } catch (IllegalArgumentException e) {
            // the job's pod sets no longer match its Workload's: it stays held as it is
            LOG.warnf("%s %s/%s: templates not restored (%s); it stays suspended as it is", kind.kind(),
                    job.getMetadata().getNamespace(), job.getMetadata().getName(), e.getMessage());
            next = JobWrites.restoreAfterStop(kind, job, null);
        }
        patch(kind, job, next, wl, "restore the pod templates of");
    }

    private void clearStartTime(JobKind kind, GenericKubernetesResource job, Workload wl, Ref ref) {
        try {
            s.writes.clearJobStartTime(kind, job);
            actedOn.put(ref, job.getMetadata().getResourceVersion());
            recovered(ref, wl);
        } catch (KubernetesClientException e) {
            if (!Writes.isConflict(e) && !Writes.isNotFound(e)) {
                failed(kind, job, wl, ref, "jobs/status", "clear the start time of", e);
            }
        }
    }

    /**
     * True when written; false when the job changed meanwhile (its next event converges), is gone, or the write failed:
     * a failure is reported ({@link WriteFailures}: log, counter, event; on the Workload, condition {@link
     * WorkloadConditions#WRITE_FAILED}) and retried after a back-off. {@code operation} is the verb of the message
     * ("suspend", "start").
     */
    private boolean patch(JobKind kind, GenericKubernetesResource before, GenericKubernetesResource after,
            Workload wl, String operation) {
        Ref ref = new Ref(ClusterCache.typeOf(kind), before.getMetadata().getNamespace(), before.getMetadata().getName());
        try {
            s.writes.jobPatch(kind, before, after);
            actedOn.put(ref, before.getMetadata().getResourceVersion());
            recovered(ref, wl);
            return true;
        } catch (KubernetesClientException e) {
            if (Writes.isConflict(e) || Writes.isNotFound(e)) {
                LOG.debugf("%s %s/%s changed meanwhile; next event converges", kind.kind(),
                        before.getMetadata().getNamespace(), before.getMetadata().getName());
                return false;
            }
            failed(kind, before, wl, ref, kind.plural(), operation, e);
            return false;
        }
    }

    /** A job write failed: said where people look, and tried again after a back-off. */
    private void failed(JobKind kind, GenericKubernetesResource job, Workload wl, Ref ref, String resource,
            String operation, KubernetesClientException e) {
        String message = s.failures.failed(job, resource, "patch", operation + " " + kind.kind() + " "
                + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName(), e);
        if (wl != null && WriteFailures.isRefusal(e) && failing.add(ref)) {
            workloads.writeFailed(wl, message);
        }
        s.retry.accept(ref);
    }

    /** A write of the job went through: a WriteFailed condition it left on the Workload is cleared. */
    private void recovered(Ref ref, Workload wl) {
        if (failing.remove(ref) && wl != null) {
            workloads.writeFailed(wl, null);
        }
    }
}
