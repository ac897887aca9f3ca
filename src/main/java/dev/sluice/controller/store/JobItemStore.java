package dev.sluice.controller.store;

import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The informer store of one job kind: stripped as every store, and no job keeps its pod templates
 * ({@link JobKind#podTemplates}) as parsed trees, the bulk of a job. A finished job is kept without them ({@link
 * JobKind#dropPodTemplates}): nothing reads them once a job is finished. A live job (waiting, held or running) keeps
 * each template as its deflated JSON ({@link PackedTemplate}) in the template's place, parsed again by each reader
 * of a template, so every read answers, and every patch computed from the cached job is, what the whole object gives:
 * the templates are read to build, check and start a job's Workload ({@code JobSync}), on the engine thread, where
 * an API read per admission would cost the loop its pace. Each watch event brings the whole object again, so a job
 * whose finish is undone is never short of its templates: only the stored copy of an event is trimmed or packed. A
 * job whose pod sets cannot be read is kept whole (its placeholder Workload quotes why).
 */
public final class JobItemStore extends StrippedItemStore<GenericKubernetesResource> {

    private final JobKind kind;

    public JobItemStore(JobKind kind) {
        this.kind = kind;
    }

    @Override
    GenericKubernetesResource toStored(String key, GenericKubernetesResource job) {
        if (!trimIfFinished(kind, job)) {
            packTemplates(kind, job, super.get(key));
        }
        return job;
    }

    /**
     * Drops the pod templates of a finished job; a status that cannot be read keeps the job whole, and so does a job
     * whose templates are packed already (a stored object put again: the informer never does that; a test may).
     */
    static boolean trimIfFinished(JobKind kind, GenericKubernetesResource job) {
        try {
            return kind.finished(job).isPresent() && kind.dropPodTemplates(job);
        } catch (InvalidJobException | IllegalArgumentException | UnsupportedOperationException unreadable) {
            return false;
        }
    }

    /**
     * Puts each pod template of the job, in its place in the tree, as a {@link PackedTemplate}: one of {@code
     * earlier}'s (the version stored before, or null) or of another pod set's where it is the same. A job whose
     * templates are not where its kind looks stays whole. True when something was packed.
     */
    static boolean packTemplates(JobKind kind, GenericKubernetesResource job, GenericKubernetesResource earlier) {
        List<Map<String, Object>> templates;
        try {
            templates = kind.podTemplates(job);
        } catch (InvalidJobException | IllegalArgumentException unreadable) {
            return false;
        }
        List<PackedTemplate> before = new ArrayList<>(2);
        if (earlier != null) {
            collect(earlier.getAdditionalProperties(), before);
        }
        Map<Object, PackedTemplate> packed = new IdentityHashMap<>();
        for (Map<String, Object> template : templates) {
            if (!(template instanceof PackedTemplate) && !template.isEmpty()) {
                PackedTemplate p = PackedTemplate.of(template, before);
                packed.put(template, p);
                before.add(p); // pod sets of one template (a PyTorchJob's master and workers) share its bytes
            }
        }
        // the kinds name a template by its map, not by its parent: each is found where it is, by identity
        return !packed.isEmpty() && replace(job.getAdditionalProperties(), packed) > 0;
    }

    /**
     * Replaces, anywhere under {@code node}, each map that is a key of {@code packed} by its value; how many. Walks
     * with forEach, which leaves no entry-set or values view cached in each map of the stored tree, and changes only
     * the entries replaced.
     */
    @SuppressWarnings("unchecked")
    private static int replace(Object node, Map<Object, PackedTemplate> packed) {
        if (node instanceof PackedTemplate) {
            return 0;
        }
        int replaced = 0;
        if (node instanceof Map<?, ?> map) {
            List<Object> found = new ArrayList<>(0);
            int[] below = { 0 };
            map.forEach((k, v) -> {
                if (packed.containsKey(v)) {
                    found.add(k);
                } else {
                    below[0] += replace(v, packed);
                }
            });
            for (Object k : found) {
                ((Map<Object, Object>) map).put(k, packed.get(map.get(k)));
            }
            replaced = found.size() + below[0];
        } else if (node instanceof List<?> list) {
            List<Object> items = (List<Object>) list;
            for (int i = 0; i < items.size(); i++) {
                PackedTemplate p = packed.get(items.get(i));
                if (p != null) {
                    items.set(i, p);
                    replaced++;
                } else {
                    replaced += replace(items.get(i), packed);
                }
            }
        }
        return replaced;
    }

    /** The packed templates anywhere under {@code node}, in the order of the tree. */
    static void collect(Object node, List<PackedTemplate> out) {
        if (node instanceof PackedTemplate p) {
            out.add(p);
        } else if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collect(v, out));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> collect(v, out));
        }
    }
}
