package dev.sluice.forecast;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.sim.Durations;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workload's expected run time, from the surest source it has: the annotation {@code sluice.dev/expected-duration}
 * (on the job, or on a bare Workload), the job's {@code activeDeadlineSeconds}, the observed run times of its
 * LocalQueue and priority, else unknown.
 */
public final class Estimates {
    public static final String EXPECTED_DURATION = "sluice.dev/expected-duration";

    private Estimates() {
    }

    public static Estimate of(Workload wl, Optional<GenericKubernetesResource> job, RunTimeHistory history) {
        Long annotated = annotation(job.map(j -> j.getMetadata().getAnnotations()).orElse(null));
        if (annotated == null) {
            annotated = annotation(wl.getMetadata().getAnnotations());
        }
        if (annotated != null) {
            return new Estimate(annotated, Basis.annotation);
        }
        Long deadline = job.map(Estimates::activeDeadlineMillis).orElse(null);
        if (deadline != null) {
            return new Estimate(deadline, Basis.activeDeadlineSeconds);
        }
        var spec = wl.getSpec();
        if (spec != null && spec.getQueueName() != null) {
            Long median = history.median(wl.getMetadata().getNamespace(), spec.getQueueName(),
                    spec.getPriority() == null ? 0 : spec.getPriority());
            if (median != null) {
                return new Estimate(median, Basis.history);
            }
        }
        return Estimate.UNKNOWN;
    }

    /** "90s", "12m", "1h30m"; null when absent or not a duration (a bad value is ignored, never fatal). */
    static Long annotation(Map<String, String> annotations) {
        String v = annotations == null ? null : annotations.get(EXPECTED_DURATION);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Durations.parseMillis(v.trim());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * spec.activeDeadlineSeconds (Job, RayJob), or for a JobSet the largest of its replicated Jobs' (each runs in
     * parallel, so the longest bounds the whole).
     */
    static Long activeDeadlineMillis(GenericKubernetesResource job) {
        Object spec = job.getAdditionalProperties().get("spec");
        if (!(spec instanceof Map<?, ?> s)) {
            return null;
        }
        Long own = seconds(s.get("activeDeadlineSeconds"));
        if (own != null) {
            return own * 1000;
        }
        Long longest = null;
        if (s.get("replicatedJobs") instanceof List<?> jobs) {
            for (Object rj : jobs) {
                if (rj instanceof Map<?, ?> r && r.get("template") instanceof Map<?, ?> t && t.get("spec") instanceof Map<?, ?> js) {
                    Long d = seconds(js.get("activeDeadlineSeconds"));
                    if (d != null && (longest == null || d > longest)) {
                        longest = d;
                    }
                }
            }
        }
        return longest == null ? null : longest * 1000;
    }

    private static Long seconds(Object v) {
        return v instanceof Number n && n.longValue() > 0 ? n.longValue() : null;
    }
}
