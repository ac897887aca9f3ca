package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.Objects;

/**
 * One pod set of a job: {@code count} identical pods from {@code template}; {@code minCount} (nullable) is the
 * fewest pods it may start with under partial admission.
 */
public record PodSetTemplate(String name, int count, Integer minCount, PodTemplateSpec template) {
    /** The most pod sets a Workload holds (its CRD's {@code maxItems}; Kueue's {@code jobframework.MaxPodSets}). */
    public static final int MAX_PER_WORKLOAD = 8;

    public PodSetTemplate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(template, "template");
        if (count < 0) {
            throw new IllegalArgumentException("pod set " + name + ": count must be >= 0, was " + count);
        }
        if (minCount != null && (minCount < 0 || minCount > count)) {
            throw new IllegalArgumentException(
                    "pod set " + name + ": minCount must be between 0 and count " + count + ", was " + minCount);
        }
    }
}
