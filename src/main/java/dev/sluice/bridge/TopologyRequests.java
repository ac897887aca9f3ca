package dev.sluice.bridge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.v1beta2.PodSetTopologyRequest;
import dev.sluice.api.v1beta2.PodsetSliceRequiredTopologyConstraint;
import dev.sluice.api.v1beta2.TopologyAnnotations;
import dev.sluice.jobs.PodIndexLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod set's topology request from its pod template's annotations and its kind's pod index labels, as Kueue v0.19.2's
 * jobframework podSetTopologyRequestBuilder.Build (with TopologyAwareScheduling and TASMultiLayerTopology on, their
 * defaults): null when it asks nothing and its kind numbers no pods.
 */
public final class TopologyRequests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TopologyRequests() {
    }

    /** A value the annotations cannot be read as: what Kueue's builder returns as an error. */
    public static final class BadAnnotationException extends Exception {
        private final String annotation;

        BadAnnotationException(String annotation, String message) {
            super(message);
            this.annotation = annotation;
        }

        public String annotation() {
            return annotation;
        }
    }

    public static PodSetTopologyRequest build(Map<String, String> annotations, PodIndexLabels indexing)
            throws BadAnnotationException {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        String required = a.get(TopologyAnnotations.REQUIRED);
        String preferred = a.get(TopologyAnnotations.PREFERRED);
        String unconstrained = a.get(TopologyAnnotations.UNCONSTRAINED);
        String sliceRequired = a.get(TopologyAnnotations.SLICE_REQUIRED);
        String sliceSize = a.get(TopologyAnnotations.SLICE_SIZE);
        String constraints = a.get(TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS);
        String groupName = a.get(TopologyAnnotations.GROUP_NAME);

        PodSetTopologyRequest request = new PodSetTopologyRequest();
        if (required != null) {
            request.setRequired(required);
        } else if (preferred != null) {
            request.setPreferred(preferred);
        } else if (unconstrained != null) {
            request.setUnconstrained(parseBool(unconstrained).orElseThrow(() -> new BadAnnotationException(
                    TopologyAnnotations.UNCONSTRAINED, "strconv.ParseBool: parsing \"" + unconstrained + "\": invalid syntax")));
        } else {
            boolean sliceLayer = (sliceRequired != null && sliceSize != null) || constraints != null;
            if (!sliceLayer && (indexing == null || indexing.isNone())) {
                return null;
            }
        }
        if (constraints != null) {
            request.setPodsetSliceRequiredTopologyConstraints(constraints(constraints));
        } else if (sliceRequired != null && sliceSize != null) {
            request.setPodSetSliceRequiredTopology(sliceRequired);
            request.setPodSetSliceSize(parseInt32(sliceSize).orElseThrow(() -> new BadAnnotationException(
                    TopologyAnnotations.SLICE_SIZE, "strconv.ParseInt: parsing \"" + sliceSize + "\": invalid syntax")));
        }
        if (indexing != null) {
            request.setPodIndexLabel(indexing.podIndexLabel());
            request.setSubGroupIndexLabel(indexing.subGroupIndexLabel());
            request.setSubGroupCount(indexing.subGroupCount());
        }
        if (groupName != null && (required != null || preferred != null)) {
            request.setPodSetGroupName(groupName);
        }
        return request;
    }

    /** Go's strconv.ParseBool. */
    public static Optional<Boolean> parseBool(String s) {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> Optional.of(true);
            case "0", "f", "F", "FALSE", "false", "False" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /** Go's strconv.ParseInt(s, 10, 32). */
    public static Optional<Integer> parseInt32(String s) {
        if (!s.matches("[+-]?[0-9]+")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(s));
        } catch (NumberFormatException outOfRange) {
            return Optional.empty();
        }
    }

    /** The constraints annotation as Kueue's builder reads it: a JSON array of 1 to 3 {topology, size}. */
    static List<PodsetSliceRequiredTopologyConstraint> constraints(String json) throws BadAnnotationException {
        List<PodsetSliceRequiredTopologyConstraint> out;
        try {
            out = parseConstraints(json);
        } catch (IllegalArgumentException e) {
            throw new BadAnnotationException(TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS,
                    "failed to parse multi-layer topology constraints annotation: " + e.getMessage());
        }
        if (out.isEmpty() || out.size() > 3) {
            throw new BadAnnotationException(TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS,
                    "topology constraints must contain between 1 and 3 entries: got " + out.size());
        }
        return out;
    }

    /**
     * The entries of a JSON array of {topology, size} as Go's json.Unmarshal reads them into Kueue's type: keys matched
     * without regard to case, other keys ignored, a missing one zero; anything else is an IllegalArgumentException.
     */
    public static List<PodsetSliceRequiredTopologyConstraint> parseConstraints(String json) {
        JsonNode tree;
        try {
            tree = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage());
        }
        if (tree == null || !tree.isArray()) {
            throw new IllegalArgumentException("not a JSON array of {\"topology\": ..., \"size\": ...}");
        }
        List<PodsetSliceRequiredTopologyConstraint> out = new ArrayList<>();
        for (JsonNode entry : tree) {
            if (!entry.isObject()) {
                throw new IllegalArgumentException("an entry is not an object: " + entry);
            }
            String topology = "";
            int size = 0;
            for (var field : entry.properties()) {
                if (field.getKey().equalsIgnoreCase("topology")) {
                    if (!field.getValue().isTextual()) {
                        throw new IllegalArgumentException("topology must be a string, not " + field.getValue());
                    }
                    topology = field.getValue().asText();
                } else if (field.getKey().equalsIgnoreCase("size")) {
                    if (!field.getValue().isIntegralNumber() || !field.getValue().canConvertToInt()) {
                        throw new IllegalArgumentException("size must be a 32-bit integer, not " + field.getValue());
                    }
                    size = field.getValue().intValue();
                }
            }
            out.add(new PodsetSliceRequiredTopologyConstraint(topology, size));
        }
        return out;
    }
}
