package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's multikueue_conversion.go: v1beta1's spec.kubeConfig and spec.clusterProfileRef are v1beta2's
 * spec.clusterSource.kubeConfig and .clusterProfileRef. v1beta1's kubeConfig is not optional: Kueue writes an empty
 * one ({location: "", locationType: ""}) when v1beta2 has none, and reads a kubeConfig without a location as none.
 */
final class MultiKueueClusterConversion implements KindConversion {

    static final String KUBE_CONFIG = "/spec/kubeConfig";

    @Override
    public void up(ObjectNode cluster, Stash keep, Stash earlier, String name) {
        ObjectNode spec = Tree.object(cluster, "/spec");
        if (spec == null) {
            return;
        }
        JsonNode kubeConfig = spec.remove("kubeConfig");
        JsonNode profile = spec.remove("clusterProfileRef");
        if (kubeConfig == null) {
            // not Kueue's v1beta1 (its kubeConfig is always there): the way back must not add one
            keep.put(KUBE_CONFIG, NullNode.getInstance());
        }
        if (kubeConfig == null && profile == null) {
            return;
        }
        ObjectNode source = spec.get("clusterSource") instanceof ObjectNode s ? s : spec.putObject("clusterSource");
        if (kubeConfig != null) {
            if (hasLocation(kubeConfig)) {
                source.set("kubeConfig", kubeConfig);
            } else if (!kubeConfig.equals(empty())) {
                keep.put(KUBE_CONFIG, kubeConfig);
            }
        }
        if (profile != null) {
            source.set("clusterProfileRef", profile);
        }
    }

    @Override
    public void down(ObjectNode cluster, Stash keep, Stash earlier, String name) {
        ObjectNode spec = Tree.object(cluster, "/spec");
        JsonNode before = earlier.remove(KUBE_CONFIG);
        if (spec == null || !(spec.get("clusterSource") instanceof ObjectNode source)) {
            return;
        }
        spec.remove("clusterSource");
        JsonNode kubeConfig = source.remove("kubeConfig");
        JsonNode profile = source.remove("clusterProfileRef");
        if (kubeConfig != null) {
            spec.set("kubeConfig", kubeConfig);
        } else if (before == null) {
            spec.set("kubeConfig", empty());
        } else if (!before.isNull()) {
            spec.set("kubeConfig", before);
        }
        if (profile != null) {
            spec.set("clusterProfileRef", profile);
        }
        List<String> others = new ArrayList<>();
        source.fieldNames().forEachRemaining(others::add);
        for (String field : others) {
            keep.put("/spec/clusterSource/" + field, source.get(field));
        }
    }

    private static boolean hasLocation(JsonNode kubeConfig) {
        JsonNode location = kubeConfig.get("location");
        return location != null && !location.isNull() && !(location.isTextual() && location.asText().isEmpty());
    }

    private static ObjectNode empty() {
        return Tree.NODES.objectNode().put("location", "").put("locationType", "");
    }
}
