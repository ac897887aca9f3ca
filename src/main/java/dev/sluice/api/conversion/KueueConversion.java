package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Converts Kueue objects between kueue.x-k8s.io/v1beta1 and v1beta2, on JSON trees: fields either version does not
 * know pass through untouched, renamed fields are renamed, and what one version cannot say is kept in an annotation
 * of the converted object ({@link #V1BETA1_FIELDS} on v1beta2 objects, {@link #V1BETA2_FIELDS} on v1beta1 ones),
 * so v1beta1 → v1beta2 → v1beta1 and v1beta2 → v1beta1 → v1beta2 give back the same object. Needs no cluster.
 */
public final class KueueConversion {

    public static final String GROUP = "kueue.x-k8s.io";
    public static final String V1BETA1 = GROUP + "/v1beta1";
    public static final String V1BETA2 = GROUP + "/v1beta2";
    public static final List<String> VERSIONS = List.of(V1BETA1, V1BETA2);
    /** On a v1beta2 object: what its v1beta1 form said that v1beta2 has no field for. */
    public static final String V1BETA1_FIELDS = "sluice.dev/v1beta1-fields";
    /** On a v1beta1 object: what its v1beta2 form said that v1beta1 has no field for. */
    public static final String V1BETA2_FIELDS = "sluice.dev/v1beta2-fields";
    /**
     * Entries of {@link #V1BETA1_FIELDS} that keep only v1beta1's older spelling of a value the v1beta2 object holds
     * (whenCanBorrow Borrow, whenCanPreempt Preempt: both MayStopSearch, as Kueue converts them); a reader of the
     * v1beta2 object loses no meaning without them.
     */
    public static final Set<String> V1BETA1_SPELLINGS = Set.of(ClusterQueueConversion.WHEN_CAN_BORROW,
            ClusterQueueConversion.WHEN_CAN_PREEMPT);

    private static final Map<String, KindConversion> KINDS = Map.of(
            "ResourceFlavor", KindConversion.SAME,
            "WorkloadPriorityClass", KindConversion.SAME,
            "ClusterQueue", new ClusterQueueConversion(),
            "LocalQueue", new LocalQueueConversion(),
            "Workload", new WorkloadConversion(),
            "Cohort", new CohortConversion(),
            "Topology", KindConversion.SAME);
    /** The admission checks' kinds (a map of their own: Map.of takes at most ten entries). */
    private static final Map<String, KindConversion> CHECK_KINDS = Map.of(
            "AdmissionCheck", new AdmissionCheckConversion(),
            "ProvisioningRequestConfig", KindConversion.SAME,
            "MultiKueueConfig", new MultiKueueConfigConversion(),
            "MultiKueueCluster", new MultiKueueClusterConversion());

    private KueueConversion() {
    }

    public static boolean isKueueKind(String kind) {
        return conversionOf(kind) != null;
    }

    private static KindConversion conversionOf(String kind) {
        return KINDS.containsKey(kind) ? KINDS.get(kind) : CHECK_KINDS.get(kind);
    }

    /** A converted copy of {@code object} in {@code desiredApiVersion}; the object itself is not changed. */
    public static ObjectNode convert(JsonNode object, String desiredApiVersion) throws ConversionException {
        if (!(object instanceof ObjectNode source)) {
            throw new ConversionException("object: must be a JSON object, not " + describe(object));
        }
        String kind = source.path("kind").asText("");
        String apiVersion = source.path("apiVersion").asText("");
        String name = (kind.isEmpty() ? "object" : kind) + " " + nameOf(source);
        if (!source.path("kind").isTextual() || !isKueueKind(kind)) {
            throw new ConversionException(name + ": kind: " + describe(source.get("kind")) + " is not a kind Sluice converts"
                    + " (one of " + String.join(", ", Stream.concat(KINDS.keySet().stream(), CHECK_KINDS.keySet().stream()).sorted().toList()) + ")");
        }
        if (!VERSIONS.contains(apiVersion)) {
            throw new ConversionException(name + ": apiVersion: " + describe(source.get("apiVersion"))
                    + " is not one Sluice converts (" + String.join(" or ", VERSIONS) + ")");
        }
        if (!VERSIONS.contains(desiredApiVersion)) {
            throw new ConversionException(name + ": desiredAPIVersion: \"" + desiredApiVersion
                    + "\" is not one Sluice converts to (" + String.join(" or ", VERSIONS) + ")");
        }
        if (source.has("metadata") && !source.get("metadata").isObject()) {
            throw new ConversionException(name + ": metadata: must be an object");
        }
        if (source.path("metadata").has("annotations") && !source.path("metadata").get("annotations").isObject()) {
            throw new ConversionException(name + ": metadata.annotations: must be a map of strings");
        }
        for (String section : List.of("spec", "status")) {
            if (source.has(section) && !source.get(section).isObject() && !source.get(section).isNull()) {
                throw new ConversionException(name + ": " + section + ": must be an object, not " + describe(source.get(section)));
            }
        }
        ObjectNode copy = source.deepCopy();
        if (apiVersion.equals(desiredApiVersion)) {
            return copy;
        }
        KindConversion conversion = conversionOf(kind);
        boolean up = desiredApiVersion.equals(V1BETA2);
        Stash earlier = Stash.take(copy, up ? V1BETA2_FIELDS : V1BETA1_FIELDS, name);
        Stash keep = Stash.empty();
        copy.put("apiVersion", desiredApiVersion);
        if (up) {
            conversion.up(copy, keep, earlier, name);
        } else {
            conversion.down(copy, keep, earlier, name);
        }
        earlier.restoreInto(copy);
        keep.writeTo(copy, up ? V1BETA1_FIELDS : V1BETA2_FIELDS);
        return copy;
    }

    private static String nameOf(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText("");
        String namespace = metadata.path("namespace").asText("");
        if (name.isEmpty()) {
            return "(no metadata.name)";
        }
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    private static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "(missing)";
        }
        return node.isTextual() ? "\"" + node.asText() + "\"" : node.toString();
    }
}
