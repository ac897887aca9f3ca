package dev.sluice.controller.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JsonDiff;
import dev.sluice.jobs.PodSetTemplate;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job writes the controller makes, built without I/O so each can be checked against what the API servers accept
 * (JobWritesContractTest). A stop is two writes: {@link #holdToStop}, then, once the job shows it is held (and, for a
 * batch/v1 Job, has no start time and no active pods), {@link #restoreAfterStop}.
 */
public final class JobWrites {

    private JobWrites() {
    }

    /** The first write of a stop: the hold and the {@link WellKnown#STOPPING} mark, nothing else. */
    public static GenericKubernetesResource holdToStop(JobKind kind, GenericKubernetesResource job) {
        GenericKubernetesResource next = Serialization.clone(job);
        kind.hold(next);
        annotations(next).put(WellKnown.STOPPING, "true");
        return next;
    }

    /**
     * The second write of a stop: the templates as the Workload recorded them ({@code originals}; null when the Workload
     * is gone) and the mark removed.
     *
     * @throws IllegalArgumentException the originals do not name the job's pod sets
     */
    public static GenericKubernetesResource restoreAfterStop(JobKind kind, GenericKubernetesResource job,
            List<PodSetTemplate> originals) {
        GenericKubernetesResource next = Serialization.clone(job);
        if (originals != null) {
            kind.restore(next, originals);
        }
        annotations(next).remove(WellKnown.STOPPING);
        return next;
    }

    /** The JSON patch that takes {@code before} to {@code after}, guarded by before's resourceVersion; empty: none. */
    public static ArrayNode patch(GenericKubernetesResource before, GenericKubernetesResource after) {
        JsonNode from = Serialization.jsonMapper().valueToTree(before);
        JsonNode to = Serialization.jsonMapper().valueToTree(after);
        ArrayNode ops = JsonDiff.diff(from, to);
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        if (ops.isEmpty()) {
            return patch;
        }
        // resourceVersion set in a patch is the update's precondition: a changed job answers 409 Conflict
        ObjectNode precondition = patch.addObject();
        precondition.put("op", "replace");
        precondition.put("path", "/metadata/resourceVersion");
        precondition.put("value", before.getMetadata().getResourceVersion());
        patch.addAll(ops);
        return patch;
    }

    private static Map<String, String> annotations(GenericKubernetesResource job) {
        if (job.getMetadata().getAnnotations() == null) {
            job.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return job.getMetadata().getAnnotations();
    }
}
