package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.jobs.ExclusiveTopology;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.JsonDiff;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The mutating webhook for jobs: on CREATE of a supported kind that opts in to queueing, hold it the kind's way and
 * inject the exclusive-topology affinity; everything else stays as submitted. The answer is the minimal JSON patch
 * from the object as submitted to the object as it must be stored.
 */
final class JobMutation {
    /** The queue an unlabeled job gets in a namespace that opted in with {@code sluice.dev/queue-by-default}. */
    static final String DEFAULT_QUEUE = "default";

    private final JobKinds kinds;
    private final ObjectMapper mapper;

    JobMutation(JobKinds kinds, ObjectMapper mapper) {
        this.kinds = kinds;
        this.mapper = mapper;
    }

    /**
     * @param queueByDefault the request came through the webhook entry of namespaces labeled
     *     {@code sluice.dev/queue-by-default: "true"} (its namespaceSelector guarantees the label), so an unlabeled
     *     job is queued in {@link #DEFAULT_QUEUE}
     */
    Verdict mutate(ReviewRequest request, boolean queueByDefault) {
        if (!request.isCreate()) {
            return Verdict.allow();
        }
        JobKind kind = kinds.forApiVersionKind(request.apiVersion(), request.kind()).orElse(null);
        if (kind == null) {
            return Verdict.allow();
        }
        GenericKubernetesResource job = mapper.convertValue(request.object(), GenericKubernetesResource.class);
        boolean labeled = queueName(job) != null;
        if (!labeled && !queueByDefault || ownedByQueuedKind(kinds, job)) {
            return Verdict.allow();
        }
        FieldErrors topology = JobTopologyValidation.errors(kind, job);
        if (!topology.isEmpty()) {
            return Verdict.invalid(JobTopologyValidation.aggregate(topology)); // Kueue's job webhooks refuse it on create
        }
        JsonNode before = mapper.valueToTree(job);
        if (!labeled) {
            labels(job).put(WellKnown.QUEUE_NAME, DEFAULT_QUEUE);
        }
        try {
            kind.hold(job);
            ExclusiveTopology.inject(job);
        } catch (InvalidJobException e) {
            return Verdict.invalid(e.getMessage());
        }
        return Verdict.patch(JsonDiff.diff(before, mapper.valueToTree(job)));
    }

    static String queueName(GenericKubernetesResource job) {
        ObjectMeta meta = job.getMetadata();
        return meta == null || meta.getLabels() == null ? null : meta.getLabels().get(WellKnown.QUEUE_NAME);
    }

    private static Map<String, String> labels(GenericKubernetesResource job) {
        if (job.getMetadata() == null) {
            job.setMetadata(new ObjectMeta());
        }
        if (job.getMetadata().getLabels() == null) {
            job.getMetadata().setLabels(new LinkedHashMap<>());
        }
        return job.getMetadata().getLabels();
    }

    /**
     * A child of a job Sluice queues (a JobSet's Job) is started by its parent once the parent is admitted; holding
     * or guarding it as well would keep it from ever running.
     */
    static boolean ownedByQueuedKind(JobKinds kinds, GenericKubernetesResource job) {
        return kinds.controlledByOneOf(job);
    }
}
