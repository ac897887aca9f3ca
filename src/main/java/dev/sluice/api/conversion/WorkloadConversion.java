package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * Kueue's workload_conversion.go: spec.priorityClassName + spec.priorityClassSource are spec.priorityClassRef;
 * status.accumulatedPastExexcutionTimeSeconds (v1beta1's spelling) is accumulatedPastExecutionTimeSeconds; a
 * topology assignment's domains are v1beta2's compressed slices; v1beta2's preemption gates and pod-set slice
 * topology constraints have no v1beta1 home.
 */
final class WorkloadConversion implements KindConversion {

    static final String WORKLOAD_PRIORITY_CLASS_SOURCE = "kueue.x-k8s.io/workloadpriorityclass";
    static final String POD_PRIORITY_CLASS_SOURCE = "scheduling.k8s.io/priorityclass";
    private static final String WPC_GROUP = "kueue.x-k8s.io";
    private static final String WPC_KIND = "WorkloadPriorityClass";
    private static final String POD_GROUP = "scheduling.k8s.io";
    private static final String POD_KIND = "PriorityClass";
    private static final Set<String> REF_FIELDS = Set.of("group", "kind", "name");

    @Override
    public void up(ObjectNode wl, Stash keep, Stash earlier, String name) throws ConversionException {
        ObjectNode spec = Tree.object(wl, "/spec");
        if (spec != null && (spec.has("priorityClassName") || spec.has("priorityClassSource"))) {
            JsonNode className = spec.get("priorityClassName");
            JsonNode source = spec.get("priorityClassSource");
            ObjectNode ref = refOf(className, source);
            if (ref != null) {
                spec.remove("priorityClassName");
                spec.remove("priorityClassSource");
                spec.set("priorityClassRef", ref);
            } else {
                // no source (or one Kueue does not know): v1beta2 has no way to say it
                Tree.drop(wl, "/spec/priorityClassName", keep);
                Tree.drop(wl, "/spec/priorityClassSource", keep);
            }
        }
        Tree.rename(wl, "/status", "accumulatedPastExexcutionTimeSeconds", "accumulatedPastExecutionTimeSeconds");
        ArrayNode assignments = Tree.array(wl, "/status/admission/podSetAssignments");
        if (assignments != null) {
            for (int i = 0; i < assignments.size(); i++) {
                String pointer = "/status/admission/podSetAssignments/" + i + "/topologyAssignment";
                if (wl.at(pointer) instanceof ObjectNode topology && topology.has("domains")) {
                    TopologyAssignments.up(topology, earlier.remove(pointer), name + ": " + Tree.field(pointer));
                }
            }
        }
    }

    @Override
    public void down(ObjectNode wl, Stash keep, Stash earlier, String name) throws ConversionException {
        ObjectNode spec = Tree.object(wl, "/spec");
        if (spec != null && spec.get("priorityClassRef") instanceof ObjectNode ref) {
            String source = sourceOf(ref);
            boolean plain = onlyRefFields(ref) && (!ref.has("name") || ref.get("name").isTextual());
            if (source != null && plain) {
                spec.remove("priorityClassRef");
                if (ref.has("name")) {
                    spec.set("priorityClassName", ref.get("name"));
                }
                spec.put("priorityClassSource", source);
            } else {
                Tree.drop(wl, "/spec/priorityClassRef", keep);
            }
        }
        Tree.drop(wl, "/spec/preemptionGates", keep);
        Tree.drop(wl, "/status/preemptionGates", keep);
        ArrayNode podSets = Tree.array(wl, "/spec/podSets");
        if (podSets != null) {
            for (int i = 0; i < podSets.size(); i++) {
                Tree.drop(wl, "/spec/podSets/" + i + "/topologyRequest/podsetSliceRequiredTopologyConstraints", keep);
            }
        }
        Tree.rename(wl, "/status", "accumulatedPastExecutionTimeSeconds", "accumulatedPastExexcutionTimeSeconds");
        ArrayNode assignments = Tree.array(wl, "/status/admission/podSetAssignments");
        if (assignments != null) {
            for (int i = 0; i < assignments.size(); i++) {
                String pointer = "/status/admission/podSetAssignments/" + i + "/topologyAssignment";
                if (wl.at(pointer) instanceof ObjectNode topology && topology.has("slices")) {
                    JsonNode original = topology.deepCopy();
                    TopologyAssignments.down(topology, name + ": " + Tree.field(pointer));
                    ObjectNode again = topology.deepCopy();
                    TopologyAssignments.up(again, null, name);
                    if (!again.equals(original)) {
                        keep.put(pointer, original);
                    }
                }
            }
        }
    }

    private static ObjectNode refOf(JsonNode className, JsonNode source) {
        if (source == null || !source.isTextual() || (className != null && !className.isTextual())) {
            return null;
        }
        ObjectNode ref = Tree.NODES.objectNode();
        switch (source.asText()) {
            case WORKLOAD_PRIORITY_CLASS_SOURCE -> ref.put("group", WPC_GROUP).put("kind", WPC_KIND);
            case POD_PRIORITY_CLASS_SOURCE -> ref.put("group", POD_GROUP).put("kind", POD_KIND);
            default -> {
                return null;
            }
        }
        if (className != null) {
            ref.set("name", className);
        }
        return ref;
    }

    private static String sourceOf(ObjectNode ref) {
        String group = ref.path("group").asText(null);
        String kind = ref.path("kind").asText(null);
        if (WPC_GROUP.equals(group) && WPC_KIND.equals(kind)) {
            return WORKLOAD_PRIORITY_CLASS_SOURCE;
        }
        if (POD_GROUP.equals(group) && POD_KIND.equals(kind)) {
            return POD_PRIORITY_CLASS_SOURCE;
        }
        return null;
    }

    private static boolean onlyRefFields(ObjectNode ref) {
        for (var names = ref.fieldNames(); names.hasNext();) {
            if (!REF_FIELDS.contains(names.next())) {
                return false;
            }
        }
        return true;
    }
}
