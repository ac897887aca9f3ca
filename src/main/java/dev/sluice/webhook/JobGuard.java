package dev.sluice.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.WellKnown;
import dev.sluice.jobs.WorkloadNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The validating webhook for queued jobs. Only Sluice releases a queued job (suspend from true to false), so nobody
 * starts it past the queue; while a job runs its queue and priority-class labels stay as they were admitted; and its
 * pod templates' topology annotations are Kueue's (on update here, on create in {@link JobMutation}; Kueue's messages).
 */
final class JobGuard {
    private final JobKinds kinds;
    private final ObjectMapper mapper;
    private final String controllerUsername;

    JobGuard(JobKinds kinds, ObjectMapper mapper, String controllerUsername) {
        this.kinds = kinds;
        this.mapper = mapper;
        this.controllerUsername = controllerUsername;
    }

    Verdict validate(ReviewRequest request) {
        if (!request.isUpdate()) {
            return Verdict.allow();
        }
        JobKind kind = kinds.forApiVersionKind(request.apiVersion(), request.kind()).orElse(null);
        if (kind == null) {
            return Verdict.allow();
        }
        GenericKubernetesResource job = mapper.convertValue(request.object(), GenericKubernetesResource.class);
        if (label(job, WellKnown.QUEUE_NAME) != null && !JobMutation.ownedByQueuedKind(kinds, job)) {
            FieldErrors topology = JobTopologyValidation.errors(kind, job);
            if (!topology.isEmpty()) {
                return Verdict.invalid(JobTopologyValidation.aggregate(topology));
            }
        }
        GenericKubernetesResource old = mapper.convertValue(request.oldObject(), GenericKubernetesResource.class);
        String queue = label(job, WellKnown.QUEUE_NAME);
        String oldQueue = label(old, WellKnown.QUEUE_NAME);
        if (queue == null && oldQueue == null || JobMutation.ownedByQueuedKind(kinds, job)) {
            return Verdict.allow();
        }
        boolean wasSuspended;
        boolean suspended;
        try {
            wasSuspended = kind.isSuspended(old);
            suspended = kind.isSuspended(job);
        } catch (InvalidJobException e) {
            return Verdict.invalid(e.getMessage());
        }
        if (wasSuspended && !suspended && !controllerUsername.equals(request.username())) {
            return Verdict.forbidden(releaseDenied(kind, job, queue != null ? queue : oldQueue, request));
        }
        if (!wasSuspended) {
            List<String> changed = new ArrayList<>();
            for (String key : List.of(WellKnown.QUEUE_NAME, WellKnown.PRIORITY_CLASS)) {
                String before = label(old, key);
                String after = label(job, key);
                if (!Objects.equals(before, after)) {
                    changed.add("metadata.labels[" + key + "]: Invalid value: " + quoted(after)
                            + ": cannot change while the job runs (it was " + quoted(before) + ")");
                }
            }
            if (!changed.isEmpty()) {
                return Verdict.forbidden(ref(job, request) + " is running: "
                        + (changed.size() == 1 ? changed.get(0) : "[" + String.join(", ", changed) + "]")
                        + "; labels take effect on a queued (suspended) job");
            }
        }
        return Verdict.allow();
    }

    private String releaseDenied(JobKind kind, GenericKubernetesResource job, String queue, ReviewRequest request) {
        String namespace = namespace(job, request);
        String name = job.getMetadata() == null ? null : job.getMetadata().getName();
        String uid = job.getMetadata() == null ? null : job.getMetadata().getUid();
        String see = name != null && uid != null && !uid.isEmpty()
                ? "kubectl describe workload -n " + namespace + " " + WorkloadNames.forJob(kind.kind(), kind.group(), name, uid)
                : "kubectl get workloads -n " + namespace + " and kubectl describe workload -n " + namespace + " <name>";
        return ref(job, request) + " is queued in LocalQueue " + queue + " and is started when admitted: only Sluice ("
                + controllerUsername + ") may set spec.suspend to false, not " + request.username()
                + ". To see why it waits: " + see;
    }

    private static String ref(GenericKubernetesResource job, ReviewRequest request) {
        String name = job.getMetadata() == null ? request.name() : job.getMetadata().getName();
        return job.getKind() + " " + namespace(job, request) + "/" + name;
    }

    private static String namespace(GenericKubernetesResource job, ReviewRequest request) {
        String ns = job.getMetadata() == null ? null : job.getMetadata().getNamespace();
        return ns != null ? ns : request.namespace();
    }

    private static String label(GenericKubernetesResource job, String key) {
        if (job.getMetadata() == null) {
            return null;
        }
        Map<String, String> labels = job.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    private static String quoted(String v) {
        return v == null ? "<none>" : '"' + v + '"';
    }
}
