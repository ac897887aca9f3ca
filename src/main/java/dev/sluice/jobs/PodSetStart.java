package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What admission gives one pod set: the flavor's node labels and tolerations, and the admitted pod count
 * ({@code null}: the pod set's full count); labels and annotations are those the admission checks' podSetUpdates add
 * to the pods (their node selectors and tolerations are merged into the others).
 */
public record PodSetStart(String podSet, Map<String, String> nodeSelector, List<Toleration> tolerations, Integer count,
                          Map<String, String> labels, Map<String, String> annotations) {
    public PodSetStart {
        Objects.requireNonNull(podSet, "podSet");
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        if (count != null && count < 0) {
            throw new IllegalArgumentException("pod set " + podSet + ": count must be >= 0, was " + count);
        }
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** A start without admission-check labels or annotations. */
    public PodSetStart(String podSet, Map<String, String> nodeSelector, List<Toleration> tolerations, Integer count) {
        this(podSet, nodeSelector, tolerations, count, Map.of(), Map.of());
    }
}
