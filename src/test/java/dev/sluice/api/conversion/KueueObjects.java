package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Random;

/**
 * Random Kueue objects of every kind, valid in the version they are written in (the renamed and respelled fields
 * use that version's names and values), with fields Sluice does not model and unknown fields thrown in.
 */
final class KueueObjects {

    static final List<String> KINDS = List.of("ResourceFlavor", "ClusterQueue", "LocalQueue", "Workload",
            "WorkloadPriorityClass", "Cohort");
    private static final JsonNodeFactory N = JsonNodeFactory.instance;

    private final Random random;
    private final boolean v1;

    KueueObjects(Random random, boolean v1beta1) {
        this.random = random;
        this.v1 = v1beta1;
    }

    ObjectNode any() {
        return of(pick(KINDS));
    }

    ObjectNode of(String kind) {
        ObjectNode o = N.objectNode();
        o.put("apiVersion", v1 ? KueueConversion.V1BETA1 : KueueConversion.V1BETA2);
        o.put("kind", kind);
        ObjectNode metadata = o.putObject("metadata");
        metadata.put("name", "obj-" + random.nextInt(1000));
        if (kind.equals("LocalQueue") || kind.equals("Workload")) {
            metadata.put("namespace", pick(List.of("default", "team-a")));
        }
        if (chance()) {
            metadata.putObject("annotations").put("example.com/note", "n" + random.nextInt(10));
        }
        if (chance()) {
            metadata.put("resourceVersion", String.valueOf(random.nextInt(100000)));
        }
        switch (kind) {
            case "ResourceFlavor" -> {
                ObjectNode spec = o.putObject("spec");
                maybe(() -> spec.putObject("nodeLabels").put("cloud.google.com/gke-nodepool", "pool-" + random.nextInt(3)));
                maybe(() -> spec.put("topologyName", "default"));
            }
            case "WorkloadPriorityClass" -> {
                o.put("value", random.nextInt(2000) - 1000);
                maybe(() -> o.put("description", "d"));
            }
            case "ClusterQueue" -> clusterQueue(o);
            case "LocalQueue" -> localQueue(o);
            case "Workload" -> workload(o);
            case "Cohort" -> cohort(o);
            default -> throw new IllegalArgumentException(kind);
        }
        if (chance() && o.has("spec")) {
            ((ObjectNode) o.get("spec")).put("futureField", random.nextInt(10));
        }
        if (chance()) {
            o.putObject("extension").put("x", true);
        }
        return o;
    }

    private void clusterQueue(ObjectNode o) {
        ObjectNode spec = o.putObject("spec");
        maybe(() -> spec.put(v1 ? "cohort" : "cohortName", "cohort-" + random.nextInt(3)));
        maybe(() -> spec.put("queueingStrategy", pick(List.of("StrictFIFO", "BestEffortFIFO"))));
        maybe(() -> spec.set("resourceGroups", resourceGroups()));
        maybe(() -> spec.putObject("namespaceSelector"));
        if (chance()) {
            ObjectNode f = spec.putObject("flavorFungibility");
            maybe(() -> f.put("whenCanBorrow", pick(v1 ? List.of("Borrow", "MayStopSearch", "TryNextFlavor")
                    : List.of("MayStopSearch", "TryNextFlavor"))));
            maybe(() -> f.put("whenCanPreempt", pick(v1 ? List.of("Preempt", "MayStopSearch", "TryNextFlavor")
                    : List.of("MayStopSearch", "TryNextFlavor"))));
            maybe(() -> f.put("preference", pick(List.of("BorrowingOverPreemption", "PreemptionOverBorrowing"))));
        }
        maybe(() -> spec.putObject("preemption").put("reclaimWithinCohort", "Any").put("withinClusterQueue", "LowerPriority"));
        if (v1 && chance()) {
            ArrayNode checks = spec.putArray("admissionChecks");
            for (int i = random.nextInt(3); i >= 0; i--) {
                checks.add("check-" + i);
            }
        }
        if (chance()) {
            ArrayNode rules = spec.putObject("admissionChecksStrategy").putArray("admissionChecks");
            rules.addObject().put("name", "prov").putArray("onFlavors").add("f1");
        }
        maybe(() -> spec.put("stopPolicy", pick(List.of("None", "Hold", "HoldAndDrain"))));
        maybe(() -> spec.set("fairSharing", weight()));
        maybe(() -> spec.putObject("admissionScope").put("admissionMode", "UsageBasedAdmissionFairSharing"));
        if (!v1 && chance()) {
            spec.putObject("concurrentAdmissionPolicy").putObject("migration").put("mode", "TryPreferredFlavors");
        }
        if (chance()) {
            ObjectNode status = o.putObject("status");
            status.put("pendingWorkloads", random.nextInt(5)).put("reservingWorkloads", 1).put("admittedWorkloads", 0);
            maybe(() -> status.set("flavorsUsage", usage()));
            if (v1 && chance()) {
                status.putObject("pendingWorkloadsStatus").put("lastChangeTime", "2026-01-01T00:00:00Z")
                        .putArray("clusterQueuePendingWorkload").addObject().put("name", "w").put("namespace", "ns");
            }
            maybe(() -> fairSharingStatus(status, true));
            maybe(() -> status.putArray("conditions").addObject().put("type", "Active").put("status", "True"));
        }
    }

    private void localQueue(ObjectNode o) {
        ObjectNode spec = o.putObject("spec");
        maybe(() -> spec.put("clusterQueue", "cq-" + random.nextInt(3)));
        maybe(() -> spec.put("stopPolicy", "Hold"));
        maybe(() -> spec.set("fairSharing", weight()));
        if (chance()) {
            ObjectNode status = o.putObject("status");
            status.put("pendingWorkloads", random.nextInt(5)).put("reservingWorkloads", 0).put("admittedWorkloads", 2);
            maybe(() -> status.set("flavorsReservation", usage()));
            maybe(() -> status.set(v1 ? "flavorUsage" : "flavorsUsage", usage()));
            if (v1 && chance()) {
                status.putArray("flavors").addObject().put("name", "f1").putArray("resources").add("cpu");
            }
            if (chance()) {
                ObjectNode fs = status.putObject("fairSharing").put("weightedShare", random.nextInt(1000));
                maybe(() -> fs.putObject("admissionFairSharingStatus").put("lastUpdate", "2026-01-01T00:00:00Z")
                        .putObject("consumedResources").put("cpu", "2"));
            }
        }
    }

    private void cohort(ObjectNode o) {
        ObjectNode spec = o.putObject("spec");
        maybe(() -> spec.put("parentName", "root-" + random.nextInt(2)));
        maybe(() -> spec.set("resourceGroups", resourceGroups()));
        maybe(() -> spec.set("fairSharing", weight()));
        if (chance()) {
            fairSharingStatus(o.putObject("status"), true);
        }
    }

    private void workload(ObjectNode o) {
        ObjectNode spec = o.putObject("spec");
        ArrayNode podSets = spec.putArray("podSets");
        for (int i = random.nextInt(3); i >= 0; i--) {
            ObjectNode ps = podSets.addObject().put("name", "ps" + i).put("count", random.nextInt(5));
            ps.putObject("template").putObject("spec").putArray("containers").addObject().put("name", "c");
            maybe(() -> ps.put("minCount", 1));
            if (chance()) {
                ObjectNode tr = ps.putObject("topologyRequest").put("required", "rack");
                if (!v1 && chance()) {
                    tr.putArray("podsetSliceRequiredTopologyConstraints").addObject().put("topology", "block").put("size", 2);
                }
            }
        }
        maybe(() -> spec.put("queueName", "lq"));
        maybe(() -> spec.put("priority", random.nextInt(100)));
        maybe(() -> spec.put("active", random.nextBoolean()));
        maybe(() -> spec.put("maximumExecutionTimeSeconds", 60));
        if (v1) {
            maybe(() -> spec.put("priorityClassName", "pc-" + random.nextInt(3)));
            maybe(() -> spec.put("priorityClassSource", pick(List.of(WorkloadConversion.WORKLOAD_PRIORITY_CLASS_SOURCE,
                    WorkloadConversion.POD_PRIORITY_CLASS_SOURCE, "", "example.com/other"))));
        } else {
            if (chance()) {
                ObjectNode ref = spec.putObject("priorityClassRef");
                maybe(() -> ref.put("group", pick(List.of("kueue.x-k8s.io", "scheduling.k8s.io"))));
                maybe(() -> ref.put("kind", pick(List.of("WorkloadPriorityClass", "PriorityClass"))));
                maybe(() -> ref.put("name", "pc-" + random.nextInt(3)));
            }
            maybe(() -> spec.putArray("preemptionGates").addObject().put("name", "gate"));
        }
        if (chance()) {
            ObjectNode status = o.putObject("status");
            maybe(() -> status.putArray("conditions").addObject().put("type", "QuotaReserved").put("status", "True")
                    .put("reason", "QuotaReserved").put("message", "ok").put("lastTransitionTime", "2026-01-01T00:00:00Z"));
            maybe(() -> status.put(v1 ? "accumulatedPastExexcutionTimeSeconds" : "accumulatedPastExecutionTimeSeconds", 30));
            if (!v1 && chance()) {
                status.putArray("preemptionGates").addObject().put("name", "gate").put("position", "Open");
            }
            maybe(() -> status.putObject("requeueState").put("count", 2));
            if (chance()) {
                ObjectNode admission = status.putObject("admission").put("clusterQueue", "cq");
                ArrayNode assignments = admission.putArray("podSetAssignments");
                for (int i = random.nextInt(2); i >= 0; i--) {
                    ObjectNode a = assignments.addObject().put("name", "ps" + i).put("count", 2);
                    a.putObject("flavors").put("cpu", "f1");
                    a.putObject("resourceUsage").put("cpu", "4");
                    maybe(() -> a.set("topologyAssignment", v1 ? domains() : slices()));
                }
            }
        }
    }

    private ObjectNode domains() {
        ObjectNode t = N.objectNode();
        int levels = 1 + random.nextInt(2);
        ArrayNode l = t.putArray("levels");
        for (int i = 0; i < levels; i++) {
            l.add("level-" + i);
        }
        ArrayNode domains = t.putArray("domains");
        for (int d = random.nextInt(4); d > 0; d--) {
            ObjectNode domain = domains.addObject();
            ArrayNode values = domain.putArray("values");
            for (int i = 0; i < levels; i++) {
                values.add("v" + random.nextInt(5));
            }
            domain.put("count", 1 + random.nextInt(4));
        }
        return t;
    }

    private ObjectNode slices() {
        ObjectNode t = N.objectNode();
        int levels = 1 + random.nextInt(2);
        ArrayNode l = t.putArray("levels");
        for (int i = 0; i < levels; i++) {
            l.add("level-" + i);
        }
        ArrayNode slices = t.putArray("slices");
        for (int s = random.nextInt(3); s > 0; s--) {
            int count = 1 + random.nextInt(3);
            ObjectNode slice = slices.addObject().put("domainCount", count);
            ArrayNode perLevel = slice.putArray("valuesPerLevel");
            for (int i = 0; i < levels; i++) {
                if (random.nextBoolean()) {
                    perLevel.addObject().put("universal", "u" + random.nextInt(3));
                } else {
                    ObjectNode individual = perLevel.addObject().putObject("individual");
                    maybe(() -> individual.put("prefix", "p-"));
                    maybe(() -> individual.put("suffix", "-s"));
                    ArrayNode roots = individual.putArray("roots");
                    for (int d = 0; d < count; d++) {
                        roots.add("r" + random.nextInt(5));
                    }
                }
            }
            ObjectNode podCounts = slice.putObject("podCounts");
            if (random.nextBoolean()) {
                podCounts.put("universal", 1 + random.nextInt(3));
            } else {
                ArrayNode individual = podCounts.putArray("individual");
                for (int d = 0; d < count; d++) {
                    individual.add(1 + random.nextInt(3));
                }
            }
        }
        return t;
    }

    private void fairSharingStatus(ObjectNode status, boolean admissionPartInV1) {
        ObjectNode fs = status.putObject("fairSharing").put("weightedShare", random.nextInt(1000));
        if (v1 && admissionPartInV1 && chance()) {
            fs.putObject("admissionFairSharingStatus").put("lastUpdate", "2026-01-01T00:00:00Z")
                    .putObject("consumedResources").put("cpu", "1");
        }
    }

    private ArrayNode resourceGroups() {
        ArrayNode groups = N.arrayNode();
        ObjectNode group = groups.addObject();
        group.putArray("coveredResources").add("cpu");
        ObjectNode quota = group.putArray("flavors").addObject().put("name", "f1").putArray("resources").addObject()
                .put("name", "cpu").put("nominalQuota", String.valueOf(random.nextInt(50)));
        maybe(() -> quota.put("borrowingLimit", "10"));
        maybe(() -> quota.put("lendingLimit", 5));
        return groups;
    }

    private ArrayNode usage() {
        ArrayNode usage = N.arrayNode();
        usage.addObject().put("name", "f1").putArray("resources").addObject().put("name", "cpu").put("total", "3");
        return usage;
    }

    private JsonNode weight() {
        return N.objectNode().put("weight", pick(List.of("1", "0", "2500m")));
    }

    private boolean chance() {
        return random.nextBoolean();
    }

    private void maybe(Runnable r) {
        if (chance()) {
            r.run();
        }
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
