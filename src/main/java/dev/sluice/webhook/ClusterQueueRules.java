package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.engine.Quantity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What Kueue's ClusterQueue webhook and CRD rules check: quotas parse and are not negative; each covered resource is
 * in exactly one resource group and listed, in order, by every flavor of that group; flavor names are unique;
 * borrowingLimit and lendingLimit only with a cohort; lendingLimit not above nominalQuota; known policy values,
 * Kueue's forbidden preemption combination and its fungibility rule (a preference only with both policies
 * TryNextFlavor); a valid namespaceSelector; a fair-sharing weight Kueue accepts.
 */
final class ClusterQueueRules {
    static final List<String> QUEUEING_STRATEGIES = List.of("StrictFIFO", "BestEffortFIFO");
    static final List<String> STOP_POLICIES = List.of("None", "Hold", "HoldAndDrain");
    static final List<String> RECLAIM_WITHIN_COHORT = List.of("Never", "LowerPriority", "Any");
    static final List<String> WITHIN_CLUSTER_QUEUE = List.of("Never", "LowerPriority", "LowerOrNewerEqualPriority");
    static final List<String> BORROW_WITHIN_COHORT = List.of("Never", "LowerPriority");
    static final List<String> WHEN_CAN_BORROW = List.of("Borrow", "MayStopSearch", "TryNextFlavor");
    static final List<String> WHEN_CAN_PREEMPT = List.of("Preempt", "MayStopSearch", "TryNextFlavor");
    /** v1beta2 dropped v1beta1's older spellings Borrow and Preempt. */
    static final List<String> WHEN_CAN_V1BETA2 = List.of("MayStopSearch", "TryNextFlavor");
    static final List<String> PREFERENCES = List.of("BorrowingOverPreemption", "PreemptionOverBorrowing");
    private static final java.math.BigDecimal ONE_NANO = new java.math.BigDecimal("1e-9");
    static final int MAX_RESOURCE_GROUPS = 16;
    static final int MAX_COVERED_RESOURCES = 64;
    static final int MAX_FLAVORS = 16;

    private ClusterQueueRules() {
    }

    /** The same rules for both versions, each under its own field names (v1beta2: spec.cohortName). */
    static FieldErrors validate(JsonNode cq, boolean v1beta2) {
        FieldErrors errors = new FieldErrors();
        JsonNode spec = Fields.object(cq, "spec", "spec", errors);
        if (spec == null) {
            return errors;
        }
        String cohortField = v1beta2 ? "cohortName" : "cohort";
        String cohort = Fields.text(spec, cohortField, "spec." + cohortField, errors);
        boolean hasCohort = cohort != null && !cohort.isEmpty();
        if (hasCohort) {
            Fields.name("spec." + cohortField, cohort, Names.subdomain(cohort), errors);
        }
        resourceGroups(spec, hasCohort, errors);
        Fields.oneOf(spec, "queueingStrategy", "spec.queueingStrategy", QUEUEING_STRATEGIES, errors);
        Fields.oneOf(spec, "stopPolicy", "spec.stopPolicy", STOP_POLICIES, errors);
        LabelSelectors.validate(Fields.object(spec, "namespaceSelector", "spec.namespaceSelector", errors),
                "spec.namespaceSelector", errors);
        preemption(Fields.object(spec, "preemption", "spec.preemption", errors), errors);
        fairSharing(spec, errors);
        flavorFungibility(Fields.object(spec, "flavorFungibility", "spec.flavorFungibility", errors), v1beta2, errors);
        return errors;
    }

    /** The policies, and Kueue's CEL rule: a preference only when both policies are TryNextFlavor (after defaults). */
    private static void flavorFungibility(JsonNode fungibility, boolean v1beta2, FieldErrors errors) {
        if (fungibility == null) {
            return;
        }
        String borrow = Fields.oneOf(fungibility, "whenCanBorrow", "spec.flavorFungibility.whenCanBorrow",
                v1beta2 ? WHEN_CAN_V1BETA2 : WHEN_CAN_BORROW, errors);
        String preempt = Fields.oneOf(fungibility, "whenCanPreempt", "spec.flavorFungibility.whenCanPreempt",
                v1beta2 ? WHEN_CAN_V1BETA2 : WHEN_CAN_PREEMPT, errors);
        String preference = Fields.oneOf(fungibility, "preference", "spec.flavorFungibility.preference", PREFERENCES,
                errors);
        // unset, whenCanBorrow is MayStopSearch and whenCanPreempt TryNextFlavor (the schema's defaults)
        boolean borrowTries = "TryNextFlavor".equals(borrow);
        boolean preemptTries = !Fields.present(fungibility, "whenCanPreempt") || "TryNextFlavor".equals(preempt);
        if (preference != null && !(borrowTries && preemptTries)) {
            errors.invalid("spec.flavorFungibility", "object", "preference can only be set when both whenCanBorrow"
                    + " and whenCanPreempt are TryNextFlavor");
        }
    }

    /** Kueue's validateFairSharing (ClusterQueues and Cohorts): the weight not negative and, unless 0, above 1n. */
    static void fairSharing(JsonNode spec, FieldErrors errors) {
        JsonNode fairSharing = Fields.object(spec, "fairSharing", "spec.fairSharing", errors);
        Quantity weight = Fields.quantity(fairSharing, "weight", "spec.fairSharing", errors);
        if (weight != null && weight.value().signum() > 0 && weight.value().compareTo(ONE_NANO) <= 0) {
            errors.invalid("spec.fairSharing", fairSharing.get("weight"), "When not 0, weight must be > 10e-9");
        }
    }

    /** Also a Cohort's own quota pool, where "has a cohort" means "has a parent". */
    static void resourceGroups(JsonNode spec, boolean hasCohort, FieldErrors errors) {
        JsonNode groups = Fields.array(spec, "resourceGroups", "spec.resourceGroups", errors);
        if (groups == null) {
            return;
        }
        if (groups.size() > MAX_RESOURCE_GROUPS) {
            errors.tooMany("spec.resourceGroups", groups.size(), MAX_RESOURCE_GROUPS);
        }
        Set<String> seenResources = new HashSet<>();
        Set<String> seenFlavors = new HashSet<>();
        for (int i = 0; i < groups.size(); i++) {
            String path = "spec.resourceGroups[" + i + "]";
            JsonNode group = groups.get(i);
            List<String> covered = coveredResources(group, path, seenResources, errors);
            JsonNode flavors = Fields.array(group, "flavors", path + ".flavors", errors);
            if (flavors == null || flavors.isEmpty()) {
                errors.required(path + ".flavors", "list at least one flavor with a quota for each covered resource");
                continue;
            }
            if (flavors.size() > MAX_FLAVORS) {
                errors.tooMany(path + ".flavors", flavors.size(), MAX_FLAVORS);
            }
            for (int j = 0; j < flavors.size(); j++) {
                String flavorPath = path + ".flavors[" + j + "]";
                JsonNode flavor = flavors.get(j);
                String name = Fields.text(flavor, "name", flavorPath + ".name", errors);
                if (name == null || name.isEmpty()) {
                    errors.required(flavorPath + ".name", "name the ResourceFlavor");
                } else {
                    Fields.name(flavorPath + ".name", name, Names.subdomain(name), errors);
                    if (!seenFlavors.add(name)) {
                        errors.duplicate(flavorPath + ".name", name,
                                "a flavor can appear only once in a ClusterQueue");
                    }
                }
                flavorQuotas(flavor, covered, hasCohort, flavorPath, errors);
            }
        }
    }

    private static List<String> coveredResources(JsonNode group, String path, Set<String> seen, FieldErrors errors) {
        List<String> covered = new ArrayList<>();
        JsonNode list = Fields.array(group, "coveredResources", path + ".coveredResources", errors);
        if (list == null || list.isEmpty()) {
            errors.required(path + ".coveredResources", "list the resources this group gives quota for, e.g. [cpu, memory]");
            return covered;
        }
        if (list.size() > MAX_COVERED_RESOURCES) {
            errors.tooMany(path + ".coveredResources", list.size(), MAX_COVERED_RESOURCES);
        }
        for (int j = 0; j < list.size(); j++) {
            String p = path + ".coveredResources[" + j + "]";
            JsonNode r = list.get(j);
            if (!r.isTextual()) {
                errors.invalid(p, r, "must be a resource name such as cpu or google.com/tpu");
                covered.add(null);
                continue;
            }
            String name = r.asText();
            covered.add(name);
            Fields.name(p, name, Names.qualifiedName(name), errors);
            if (!seen.add(name)) {
                errors.duplicate(p, name, "a resource can be covered by only one resource group");
            }
        }
        return covered;
    }

    private static void flavorQuotas(JsonNode flavor, List<String> covered, boolean hasCohort, String path,
            FieldErrors errors) {
        JsonNode resources = Fields.array(flavor, "resources", path + ".resources", errors);
        int count = resources == null ? 0 : resources.size();
        if (count != covered.size()) {
            errors.invalid(path + ".resources", count + " resources", "must have the same number of resources as the"
                    + " coveredResources " + covered + ", in the same order");
        }
        for (int k = 0; k < Math.min(count, covered.size()); k++) {
            String p = path + ".resources[" + k + "]";
            JsonNode quota = resources.get(k);
            String name = Fields.text(quota, "name", p + ".name", errors);
            if (covered.get(k) != null && !covered.get(k).equals(name)) {
                errors.invalid(p + ".name", name == null ? "" : name,
                        "must match the name in coveredResources (\"" + covered.get(k) + "\")");
            }
            Quantity nominal = null;
            if (!Fields.present(quota, "nominalQuota")) {
                errors.required(p + ".nominalQuota", "give the quota of this resource in this flavor, e.g. \"24\"");
            } else {
                nominal = Fields.quantity(quota, "nominalQuota", p + ".nominalQuota", errors);
            }
            Fields.quantity(quota, "borrowingLimit", p + ".borrowingLimit", errors);
            if (Fields.present(quota, "borrowingLimit") && !hasCohort) {
                errors.invalid(p + ".borrowingLimit", quota.get("borrowingLimit"), "must be nil when cohort is empty");
            }
            Quantity lending = Fields.quantity(quota, "lendingLimit", p + ".lendingLimit", errors);
            if (Fields.present(quota, "lendingLimit") && !hasCohort) {
                errors.invalid(p + ".lendingLimit", quota.get("lendingLimit"), "must be nil when cohort is empty");
            }
            if (lending != null && nominal != null && lending.compareTo(nominal) > 0) {
                errors.invalid(p + ".lendingLimit", quota.get("lendingLimit"),
                        "must be less than or equal to nominalQuota (" + quota.get("nominalQuota").asText() + ")");
            }
        }
    }

    private static void preemption(JsonNode preemption, FieldErrors errors) {
        if (preemption == null) {
            return;
        }
        String reclaim = Fields.oneOf(preemption, "reclaimWithinCohort", "spec.preemption.reclaimWithinCohort",
                RECLAIM_WITHIN_COHORT, errors);
        Fields.oneOf(preemption, "withinClusterQueue", "spec.preemption.withinClusterQueue", WITHIN_CLUSTER_QUEUE,
                errors);
        JsonNode borrow = Fields.object(preemption, "borrowWithinCohort", "spec.preemption.borrowWithinCohort", errors);
        String borrowPolicy = Fields.oneOf(borrow, "policy", "spec.preemption.borrowWithinCohort.policy",
                BORROW_WITHIN_COHORT, errors);
        if (Fields.present(borrow, "maxPriorityThreshold") && !borrow.get("maxPriorityThreshold").canConvertToInt()) {
            errors.invalid("spec.preemption.borrowWithinCohort.maxPriorityThreshold",
                    borrow.get("maxPriorityThreshold"), "must be a 32-bit integer");
        }
        // reclaimWithinCohort defaults to Never and borrowWithinCohort.policy to Never
        boolean reclaimNever = reclaim == null && !Fields.present(preemption, "reclaimWithinCohort")
                || "Never".equals(reclaim);
        if (reclaimNever && borrowPolicy != null && !"Never".equals(borrowPolicy)) {
            errors.invalid("spec.preemption", preemption,
                    "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never; set reclaimWithinCohort to"
                            + " LowerPriority or Any, or borrowWithinCohort.policy to Never");
        }
    }
}
