package dev.sluice.webhook;

import static dev.sluice.api.v1beta2.TopologyAnnotations.GROUP_NAME;
import static dev.sluice.api.v1beta2.TopologyAnnotations.PREFERRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.REQUIRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_REQUIRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_SIZE;
import static dev.sluice.api.v1beta2.TopologyAnnotations.UNCONSTRAINED;

import dev.sluice.api.v1beta2.PodsetSliceRequiredTopologyConstraint;
import dev.sluice.bridge.TopologyRequests;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod template's topology annotations, checked as Kueue v0.19.2's jobframework ValidateTASPodSetRequest and
 * ValidateSliceSizeAnnotationUpperBound check them (TASMultiLayerTopology on, its default), with its messages and
 * field paths ({@code <template>.metadata.annotations[<key>]}).
 */
final class TopologyAnnotationRules {

    private TopologyAnnotationRules() {
    }

    /** Kueue's job webhooks: the annotation rules, and only when they pass, the slice sizes against the pod count. */
    static void validate(String metadataPath, Map<String, String> annotations, int podCount, FieldErrors errors) {
        FieldErrors own = new FieldErrors();
        podSetRequest(metadataPath, annotations, own);
        if (own.isEmpty()) {
            sliceSizeUpperBound(metadataPath, annotations, podCount, own);
        }
        errors.addAll(own);
    }

    static void podSetRequest(String metadataPath, Map<String, String> annotations, FieldErrors errors) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        String path = metadataPath + ".annotations";
        boolean required = a.containsKey(REQUIRED);
        boolean preferred = a.containsKey(PREFERRED);
        boolean unconstrained = a.containsKey(UNCONSTRAINED);
        boolean sliceRequired = a.containsKey(SLICE_REQUIRED);
        boolean sliceSize = a.containsKey(SLICE_SIZE);
        if ((required ? 1 : 0) + (preferred ? 1 : 0) + (unconstrained ? 1 : 0) > 1) {
            errors.invalidOmitValue(path, "must not contain more than one topology annotation: [\"" + REQUIRED + "\", \""
                    + PREFERRED + "\", \"" + UNCONSTRAINED + "\"]");
        }
        for (String key : List.of(REQUIRED, PREFERRED, SLICE_REQUIRED)) {
            if (a.containsKey(key)) {
                labelName(key(path, key), a.get(key), errors);
            }
        }
        if (a.containsKey(GROUP_NAME)) {
            String group = a.get(GROUP_NAME);
            if (group.matches("[0-9]+") && new java.math.BigInteger(group).bitLength() <= 64) {
                errors.invalid(key(path, GROUP_NAME), group, "must not be a number");
            }
            if (sliceSize) {
                errors.forbidden(key(path, GROUP_NAME), "may not be set when '" + SLICE_SIZE + "' is specified");
            }
            if (sliceRequired) {
                errors.forbidden(key(path, GROUP_NAME), "may not be set when '" + SLICE_REQUIRED + "' is specified");
            }
            if (!preferred && !required) {
                errors.forbidden(key(path, GROUP_NAME), "may not be set when neither '" + PREFERRED + "' nor '" + REQUIRED
                        + "' is specified");
            }
        }
        if (unconstrained && TopologyRequests.parseBool(a.get(UNCONSTRAINED)).isEmpty()) {
            errors.invalid(key(path, UNCONSTRAINED), a.get(UNCONSTRAINED), "must be a boolean value");
        }
        if (sliceSize) {
            String value = a.get(SLICE_SIZE);
            Optional<Integer> size = TopologyRequests.parseInt32(value);
            if (size.isEmpty()) {
                errors.invalid(key(path, SLICE_SIZE), value, "must be a numeric value");
            } else if (size.get() < 1) {
                errors.invalid(key(path, SLICE_SIZE), value, "must be greater than or equal to 1");
            }
        }
        if (sliceRequired && !sliceSize) {
            errors.required(key(path, SLICE_SIZE), "must be set when '" + SLICE_REQUIRED + "' is specified");
        }
        if (!sliceRequired && sliceSize) {
            errors.forbidden(key(path, SLICE_SIZE), "may not be set when '" + SLICE_REQUIRED + "' is not specified");
        }
        constraints(path, a, sliceRequired, sliceSize, a.containsKey(GROUP_NAME), errors);
    }

    private static void constraints(String path, Map<String, String> a, boolean sliceRequired, boolean sliceSize,
            boolean groupName, FieldErrors errors) {
        String json = a.get(SLICE_REQUIRED_CONSTRAINTS);
        if (json == null) {
            return;
        }
        String at = key(path, SLICE_REQUIRED_CONSTRAINTS);
        if (sliceRequired) {
            errors.forbidden(at, "may not be set when '" + SLICE_REQUIRED + "' is specified");
        }
        if (sliceSize) {
            errors.forbidden(at, "may not be set when '" + SLICE_SIZE + "' is specified");
        }
        if (groupName) {
            errors.forbidden(key(path, GROUP_NAME), "may not be set when '" + SLICE_REQUIRED_CONSTRAINTS + "' is specified");
        }
        List<PodsetSliceRequiredTopologyConstraint> layers;
        try {
            layers = TopologyRequests.parseConstraints(json);
        } catch (IllegalArgumentException e) {
            errors.invalid(at, json, "must be a valid JSON array: " + e.getMessage());
            return;
        }
        if (layers.isEmpty() || layers.size() > 3) {
            errors.invalid(at, json, "topology constraints must contain between 1 and 3 entries");
            return;
        }
        for (int i = 0; i < layers.size(); i++) {
            labelName(at + "[" + i + "].topology", layers.get(i).getTopology(), errors);
            if (layers.get(i).getSize() < 1) {
                errors.invalid(at + "[" + i + "].size", layers.get(i).getSize(), "must be greater than or equal to 1");
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < layers.size(); i++) {
            Integer earlier = seen.putIfAbsent(layers.get(i).getTopology(), i);
            if (earlier != null) {
                errors.duplicate(at + "[" + i + "].topology", layers.get(i).getTopology() + " (also at index " + earlier + ")");
            }
        }
        for (int i = 0; i + 1 < layers.size(); i++) {
            int parent = layers.get(i).getSize();
            int child = layers.get(i + 1).getSize();
            if (child > 0 && parent % child != 0) {
                errors.invalid(at + "[" + (i + 1) + "].size", child, "must evenly divide the parent layer size " + parent);
            }
        }
    }

    static void sliceSizeUpperBound(String metadataPath, Map<String, String> annotations, int podCount, FieldErrors errors) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        String path = metadataPath + ".annotations";
        if (a.containsKey(SLICE_SIZE)) {
            Optional<Integer> size = TopologyRequests.parseInt32(a.get(SLICE_SIZE));
            if (size.isEmpty()) {
                errors.invalid(key(path, SLICE_SIZE), a.get(SLICE_SIZE), "must be a numeric value");
                return;
            }
            if (size.get() > podCount) {
                errors.invalid(key(path, SLICE_SIZE), a.get(SLICE_SIZE), "must not be greater than pod set count " + podCount);
            }
        }
        if (a.containsKey(SLICE_REQUIRED_CONSTRAINTS)) {
            try {
                List<PodsetSliceRequiredTopologyConstraint> layers = TopologyRequests.parseConstraints(a.get(SLICE_REQUIRED_CONSTRAINTS));
                if (!layers.isEmpty() && layers.get(0).getSize() > podCount) {
                    errors.invalid(key(path, SLICE_REQUIRED_CONSTRAINTS), layers.get(0).getSize(),
                            "must not be greater than pod set count " + podCount);
                }
            } catch (IllegalArgumentException unreadable) {
                // reported by podSetRequest
            }
        }
    }

    /** Kubernetes' ValidateLabelName: one error per problem of the qualified name. */
    private static void labelName(String path, String value, FieldErrors errors) {
        for (String problem : Names.qualifiedName(value)) {
            errors.invalid(path, value, problem);
        }
    }

    private static String key(String path, String key) {
        return path + "[" + key + "]";
    }
}
