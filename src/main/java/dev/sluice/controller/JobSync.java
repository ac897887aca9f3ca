package dev.sluice.controller;

import dev.sluice.api.v1beta1.PodSet;
import dev.sluice.api.v1beta1.PodSetAssignment;
import dev.sluice.api.v1beta1.ResourceFlavor;
import dev.sluice.api.v1beta1.Workload;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.JobWorkloads;
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
        if (WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)) {
            return; // e.g. FailedToStart: the job stays suspended
        }
        boolean suspended = kind.isSuspended(job);
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
            workloads.requeue(wl);
        }
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
            // release the quota now; do not wait for the garbage collector
            var key = EngineWorkloads.key(wl);
            if (s.engine.workload(key).isPresent()) {
                s.engine.delete(key);
                s.metrics.workloadFinished(key.namespace(), key.name(), s.now());
            }
            try {
                s.writes.deleteWorkload(wl);
            } catch (KubernetesClientException e) {
                LOG.infof("Workload %s not deleted (%s); retrying", key, e.getMessage());
                s.retry.accept(ref);
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
            s.retry.accept(new Ref(ClusterCache.typeOf(kind), job.getMetadata().getNamespace(), job.getMetadata().getName()));
        }
    }

    private void create(JobKind kind, Ref ref, GenericKubernetesResource job, String queue) {
        if (kind.finished(job).isPresent()) {
            return; // a job that ended before it was queued needs no Workload
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

    private void createWorkload(Ref ref, GenericKubernetesResource job, Workload wl) {
        try {
            Workload created = s.writes.createWorkload(wl);
            s.events.normal(job, "CreatedWorkload", "Created Workload: " + created.getMetadata().getNamespace() + "/"
                    + created.getMetadata().getName());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                LOG.infof("Workload for %s not created (%s); retrying", ref, e.getMessage());
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
        if (patch(kind, job, next)) {
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
        for (PodSet ps : wl.getSpec().getPodSets()) {
            PodSetAssignment psa = byName.get(ps.getName());
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
            Integer count = psa == null || psa.getCount() == null || ps.getCount() == null
                    || psa.getCount().equals(ps.getCount()) ? null : psa.getCount();
            starts.add(new PodSetStart(ps.getName(), nodeSelector, tolerations, count));
        }
        GenericKubernetesResource next = Serialization.clone(job);
        try {
            kind.start(next, starts);
        } catch (StartConflictException | IllegalArgumentException e) {
            // the flavor's node labels clash with the template, or the job no longer has the Workload's pod sets
            s.events.warning(job, "FailedToStart", e.getMessage());
            workloads.finish(wl, "FailedToStart", e.getMessage());
            return;
        }
        if (patch(kind, job, next)) {
            s.events.normal(job, "Started", "Admitted by clusterQueue " + admission.getClusterQueue());
            s.metrics.workloadStarted(wl.getMetadata().getNamespace(), wl.getMetadata().getName(), s.now());
        }
    }

    /** Not (or no longer) admitted: suspend and put the templates back as the Workload recorded them. */
    private void stop(JobKind kind, GenericKubernetesResource job, Workload wl) {
        // the cache keeps no pod templates: the originals are read from the Workload itself
        Workload full;
        try {
            full = s.writes.readWorkload(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
        } catch (KubernetesClientException e) {
            s.retry.accept(new Ref(ClusterCache.typeOf(kind), job.getMetadata().getNamespace(), job.getMetadata().getName()));
            return;
        }
        if (full == null) {
            return;
        }
        List<PodSetTemplate> originals = new ArrayList<>();
        for (PodSet ps : full.getSpec().getPodSets()) {
            originals.add(new PodSetTemplate(ps.getName(), ps.getCount() == null ? 1 : ps.getCount(), ps.getMinCount(),
                    ps.getTemplate()));
        }
        GenericKubernetesResource next = Serialization.clone(job);
        try {
            kind.restore(next, originals);
        } catch (IllegalArgumentException e) {
            // the job's pod sets no longer match its Workload's: hold it as it is
            LOG.warnf("%s %s/%s: templates not restored (%s); suspended as it is", kind.kind(),
                    job.getMetadata().getNamespace(), job.getMetadata().getName(), e.getMessage());
            next = Serialization.clone(job);
            kind.hold(next);
        }
        boolean evicted = WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED);
        if (!patch(kind, job, next)) {
            return;
        }
        if (evicted) {
            var cond = WorkloadConditions.find(wl, WorkloadConditions.EVICTED);
            s.events.normal(job, "Stopped", cond.getMessage());
            s.metrics.workloadInterrupted(wl.getMetadata().getNamespace(), wl.getMetadata().getName(), s.now());
        } else {
            s.events.normal(job, "Stopped", "Not admitted by cluster queue: Workload " + wl.getMetadata().getName()
                    + " has no quota reservation, so the " + kind.kind() + " was suspended again");
        }
    }

    /** True when written; false when the job changed meanwhile (its next event converges) or is gone. */
    private boolean patch(JobKind kind, GenericKubernetesResource before, GenericKubernetesResource after) {
        try {
            s.writes.jobPatch(kind, before, after);
            actedOn.put(new Ref(ClusterCache.typeOf(kind), before.getMetadata().getNamespace(),
                    before.getMetadata().getName()), before.getMetadata().getResourceVersion());
            return true;
        } catch (KubernetesClientException e) {
            if (Writes.isConflict(e) || Writes.isNotFound(e)) {
                LOG.debugf("%s %s/%s changed meanwhile; next event converges", kind.kind(),
                        before.getMetadata().getNamespace(), before.getMetadata().getName());
                return false;
            }
            LOG.infof("%s %s/%s not written (%s); retrying", kind.kind(), before.getMetadata().getNamespace(),
                    before.getMetadata().getName(), e.getMessage());
            s.retry.accept(new Ref(ClusterCache.typeOf(kind), before.getMetadata().getNamespace(),
                    before.getMetadata().getName()));
            return false;
        }
    }
}
