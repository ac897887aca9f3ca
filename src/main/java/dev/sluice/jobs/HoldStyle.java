package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a kind is held: a boolean {@code suspend} field (e.g. {@code spec.suspend}, {@code spec.runPolicy.suspend})
 * and, for the kinds ack-kube-queue holds by annotation, {@code scheduling.x-k8s.io/suspend: "true"}.
 * <p>
 * The object itself records the way it was held, so no extra bookkeeping is needed: {@link #release} sets the
 * annotation to {@code "false"} instead of removing it, and sets the field to false instead of removing it.
 * A present annotation (any value) therefore says "held by annotation", a present field "held by field", and
 * {@link #hold} re-applies exactly those. An object with neither is held the kind's default way.
 */
final class HoldStyle {
    /** Job, JobSet, RayJob, Argo Workflow: {@code spec.suspend} only. */
    static final HoldStyle SPEC_SUSPEND = new HoldStyle(List.of("spec"), false, false);

    private final List<String> parents;
    private final boolean annotation;
    private final boolean annotationByDefault;

    /**
     * @param parents             path to the object that holds the {@code suspend} field
     * @param annotation          whether the ack-kube-queue annotation holds this kind too
     * @param annotationByDefault whether an object held neither way is held by the annotation (Spark, whose
     *                            operator may not know {@code spec.suspend})
     */
    HoldStyle(List<String> parents, boolean annotation, boolean annotationByDefault) {
        this.parents = List.copyOf(parents);
        this.annotation = annotation;
        this.annotationByDefault = annotation && annotationByDefault;
    }

    /** Path of the field, e.g. {@code spec.runPolicy.suspend}. */
    String fieldPath() {
        return String.join(".", parents) + ".suspend";
    }

    /** Whether any hold is in place: the field is true, or the annotation is "true". */
    boolean isHeld(GenericKubernetesResource job) {
        return RawTree.flag(parent(job, false), "suspend", Models.ref(job), fieldPath())
                || annotation && "true".equals(annotationValue(job));
    }

    /** Whether the object carries the annotation (with any value): it is, or was, held by it. */
    boolean usesAnnotation(GenericKubernetesResource job) {
        return annotation && annotationValue(job) != null;
    }

    /** Whether the object has the field (true or false). */
    boolean usesField(GenericKubernetesResource job) {
        Map<String, Object> p = parent(job, false);
        return p != null && p.get("suspend") != null;
    }

    /** Holds the job the way it shows it was held; an object held neither way, the kind's default way. */
    void hold(GenericKubernetesResource job) {
        boolean byAnnotation = usesAnnotation(job);
        boolean byField = usesField(job);
        if (byAnnotation || !byField && annotationByDefault) {
            annotations(job).put(WellKnown.ACK_SUSPEND, "true");
        }
        if (byField || !byAnnotation && !annotationByDefault) {
            parent(job, true).put("suspend", true);
        }
    }

    /**
     * Releases every hold in place: the annotation becomes "false" (kept, as the record of the way the job
     * was held), the field false. A job held neither way gets the field false when the field is the kind's
     * default way, as before.
     */
    void release(GenericKubernetesResource job) {
        boolean byAnnotation = usesAnnotation(job);
        if (byAnnotation) {
            annotations(job).put(WellKnown.ACK_SUSPEND, "false");
        }
        if (usesField(job) || !byAnnotation && !annotationByDefault) {
            parent(job, true).put("suspend", false);
        }
    }

    private Map<String, Object> parent(GenericKubernetesResource job, boolean create) {
        String ref = Models.ref(job);
        Map<String, Object> node = job.getAdditionalProperties();
        StringBuilder path = new StringBuilder();
        for (String key : parents) {
            path.append(path.length() == 0 ? "" : ".").append(key);
            node = create ? RawTree.objectOrCreate(node, key, ref, path.toString())
                    : RawTree.object(node, key, ref, path.toString());
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    private static String annotationValue(GenericKubernetesResource job) {
        ObjectMeta meta = job.getMetadata();
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(WellKnown.ACK_SUSPEND);
    }

    private static Map<String, String> annotations(GenericKubernetesResource job) {
        if (job.getMetadata() == null) {
            job.setMetadata(new ObjectMeta());
        }
        if (job.getMetadata().getAnnotations() == null) {
            job.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return job.getMetadata().getAnnotations();
    }
}
