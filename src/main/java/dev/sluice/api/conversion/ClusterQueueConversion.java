package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Kueue's clusterqueue_conversion.go: spec.cohort is spec.cohortName; v1beta1's spec.admissionChecks (names) become
 * spec.admissionChecksStrategy rules; the fungibility spellings Borrow and Preempt are MayStopSearch;
 * v1beta1's status.pendingWorkloadsStatus and status.fairSharing.admissionFairSharingStatus and v1beta2's
 * spec.concurrentAdmissionPolicy have no home in the other version.
 */
final class ClusterQueueConversion implements KindConversion {

    static final String CHECKS = "/spec/admissionChecks";
    static final String STRATEGY = "/spec/admissionChecksStrategy";
    static final String WHEN_CAN_BORROW = "/spec/flavorFungibility/whenCanBorrow";
    static final String WHEN_CAN_PREEMPT = "/spec/flavorFungibility/whenCanPreempt";
    private static final String MAY_STOP_SEARCH = "MayStopSearch";

    @Override
    public void up(ObjectNode cq, Stash keep, Stash earlier, String name) throws ConversionException {
        Tree.rename(cq, "/spec", "cohort", "cohortName");
        ArrayNode checks = Tree.array(cq, CHECKS);
        if (checks != null) {
            keep.put(CHECKS, checks);
            Tree.drop(cq, STRATEGY, keep);
            ((ObjectNode) cq.get("spec")).remove("admissionChecks");
            ((ObjectNode) cq.get("spec")).set("admissionChecksStrategy", strategyOf(checks, name));
        }
        oldSpelling(cq, WHEN_CAN_BORROW, "Borrow", keep);
        oldSpelling(cq, WHEN_CAN_PREEMPT, "Preempt", keep);
        Tree.drop(cq, "/status/pendingWorkloadsStatus", keep);
        FairSharingStatuses.up(cq, keep);
    }

    @Override
    public void down(ObjectNode cq, Stash keep, Stash earlier, String name) throws ConversionException {
        Tree.rename(cq, "/spec", "cohortName", "cohort");
        Tree.drop(cq, "/spec/concurrentAdmissionPolicy", keep);
        JsonNode checks = earlier.remove(CHECKS);
        JsonNode strategyBefore = earlier.remove(STRATEGY);
        if (checks instanceof ArrayNode list && strategyOf(list, name).equals(cq.at(STRATEGY))) {
            ObjectNode spec = (ObjectNode) cq.get("spec");
            spec.set("admissionChecks", list);
            spec.remove("admissionChecksStrategy");
            if (strategyBefore != null) {
                spec.set("admissionChecksStrategy", strategyBefore);
            }
        }
        newSpelling(cq, WHEN_CAN_BORROW, earlier);
        newSpelling(cq, WHEN_CAN_PREEMPT, earlier);
    }

    private static ObjectNode strategyOf(ArrayNode checks, String name) throws ConversionException {
        ObjectNode strategy = Tree.NODES.objectNode();
        ArrayNode rules = strategy.putArray("admissionChecks");
        for (int i = 0; i < checks.size(); i++) {
            JsonNode check = checks.get(i);
            if (!check.isTextual()) {
                throw new ConversionException(name + ": spec.admissionChecks[" + i + "]: must be the name of an"
                        + " AdmissionCheck (a string), not " + check);
            }
            rules.addObject().set("name", check);
        }
        return strategy;
    }

    private static void oldSpelling(ObjectNode cq, String pointer, String old, Stash keep) {
        if (cq.at(pointer).asText("").equals(old)) {
            keep.put(pointer, cq.at(pointer));
            Tree.object(cq, "/spec/flavorFungibility").put(pointer.substring(pointer.lastIndexOf('/') + 1), MAY_STOP_SEARCH);
        }
    }

    /** Borrow or Preempt come back only while the value still means the same (MayStopSearch). */
    private static void newSpelling(ObjectNode cq, String pointer, Stash earlier) {
        JsonNode old = earlier.remove(pointer);
        if (old != null && cq.at(pointer).asText("").equals(MAY_STOP_SEARCH)) {
            Tree.object(cq, "/spec/flavorFungibility").set(pointer.substring(pointer.lastIndexOf('/') + 1), old);
        }
    }
}
