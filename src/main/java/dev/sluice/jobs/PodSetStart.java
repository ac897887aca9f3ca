package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What admission gives one pod set: the flavor's node labels and tolerations, and the admitted pod count
 * ({@code null}: the pod set's full count); labels and annotations are those the admission checks' podSetUpdates add
 * to the pods (their node selectors and tolerations are merged into the others), and for a pod set placed by
 * topology the annotations and scheduling gates Kueue puts on its pod template (pkg/podset FromAssignment: the
 * {@code kueue.x-k8s.io/topology} gate, the Workload's name). A stop takes all of it off again with the rest of the
 * template.
 */
public record PodSetStart(String podSet, Map<String, String> nodeSelector, List<Toleration> tolerations, Integer count,
                          Map<String, String> labels, Map<String, String> annotations, List<String> schedulingGates) {
    public PodSetStart {
        Objects.requireNonNull(podSet, "podSet");
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        if (count != null && count < 0) {
            throw new IllegalArgumentException("pod set " + podSet + ": count must be >= 0, was " + count);
        }
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        schedulingGates = schedulingGates == null ? List.of() : List.copyOf(schedulingGates);
    }

    /** A start with the flavors' node labels and tolerations only. */
    public PodSetStart(String podSet, Map<String, String> nodeSelector, List<Toleration> tolerations, Integer count) {
        this(podSet, nodeSelector, tolerations, count, null, null, null);
    }
}
