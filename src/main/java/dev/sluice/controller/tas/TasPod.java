package dev.sluice.controller.tas;

import java.util.Map;

/**
 * What the ungater reads of a pod: its key, labels (pod set, index labels) and annotations (Workload, index offset),
 * its node selector, whether it still has the topology gate and whether it ended (Succeeded or Failed: it is replaced
 * and holds no place in its domain). {@code creation} orders the pods of kinds without an index label.
 */
public record TasPod(String name, String uid, Map<String, String> labels, Map<String, String> annotations,
        Map<String, String> nodeSelector, boolean gated, boolean terminated, String creation) {
    public TasPod {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        creation = creation == null ? "" : creation;
    }
}
