package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The shape of a Kueue scheduler test case (pkg/scheduler/scheduler_test.go, scheduler_fs_test.go): flavors, queues
 * and cohorts, workloads already holding quota (Kueue's ReserveQuota: restored as admitted), pending workloads, and
 * one scheduling cycle. Each workload has one pod set "main" of one pod, as Kueue's MakeWorkload(...).Request(...).
 */
final class KueueCase {
    final Engine engine;
    private long admittedAt;

    KueueCase(boolean fairSharing, String... flavors) {
        engine = fairSharing ? new Engine(FairSharing.on()) : new Engine();
        for (String f : flavors) {
            engine.upsertFlavor(Fixtures.flavor(f));
        }
    }

    /** A ClusterQueue of one resource group over one resource; see {@link #quota}. */
    static ClusterQueueSpec queue(String name, String cohort, PreemptionSpec preemption, FlavorFungibility fungibility,
                                  String resource, FlavorQuotas... flavors) {
        return new ClusterQueueSpec(name, cohort, List.of(new ResourceGroupSpec(List.of(resource), List.of(flavors))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), preemption, fungibility, StopPolicy.None);
    }

    /** Kueue's MakeFlavorQuotas(flavor).Resource(resource, nominal[, borrowingLimit]) in whole units. */
    static FlavorQuotas quota(String flavor, String resource, long nominal, Long borrowingLimit) {
        return new FlavorQuotas(flavor, List.of(new ResourceQuota(resource, nominal * 1000,
                borrowingLimit == null ? null : borrowingLimit * 1000, null)));
    }

    static FlavorQuotas quota(String flavor, String resource, long nominal) {
        return quota(flavor, resource, nominal, null);
    }

    static PreemptionSpec preemption(WithinClusterQueue within, ReclaimWithinCohort reclaim) {
        return new PreemptionSpec(reclaim, BorrowWithinCohortPolicy.Never, null, within);
    }

    KueueCase cq(ClusterQueueSpec spec) {
        engine.upsertClusterQueue(spec);
        return this;
    }

    KueueCase cohort(CohortSpec spec) {
        engine.upsertCohort(spec);
        return this;
    }

    KueueCase lq(String namespace, String name, String clusterQueue) {
        engine.upsertLocalQueue(Fixtures.lq(namespace, name, clusterQueue));
        return this;
    }

    static WorkloadSpec workload(String namespace, String name, String queue, int priority, String resource,
                                 long units) {
        return new WorkloadSpec(new WorkloadKey(namespace, name), "wl-" + name, queue, priority, 0,
                List.of(PodSetSpec.of("main", 1, Map.of(resource, units * 1000))), true);
    }

    /** A workload holding quota in clusterQueue on flavor (Kueue's SimpleReserveQuota), later ones admitted later. */
    KueueCase admitted(String namespace, String name, String queue, int priority, String resource, long units,
                       String clusterQueue, String flavor) {
        WorkloadSpec w = workload(namespace, name, queue, priority, resource, units);
        engine.restoreAdmitted(w, new Assignment(clusterQueue, List.of(new PodSetAssignment("main",
                Map.of(resource, flavor), Map.of(resource, units * 1000), 1))), admittedAt++);
        return this;
    }

    /** As {@link #admitted}, with several resources, each on its flavor (units per resource). */
    KueueCase admitted(String namespace, String name, String queue, int priority, String clusterQueue,
                       Map<String, String> flavors, Map<String, Long> units) {
        Map<String, Long> milli = new java.util.TreeMap<>();
        units.forEach((r, u) -> milli.put(r, u * 1000));
        WorkloadSpec w = new WorkloadSpec(new WorkloadKey(namespace, name), "wl-" + name, queue, priority, 0,
                List.of(PodSetSpec.of("main", 1, milli)), true);
        engine.restoreAdmitted(w, new Assignment(clusterQueue, List.of(new PodSetAssignment("main", flavors, milli, 1))),
                admittedAt++);
        return this;
    }

    KueueCase pending(WorkloadSpec w) {
        engine.submit(w);
        return this;
    }

    KueueCase pending(String namespace, String name, String queue, int priority, String resource, long units) {
        engine.submit(workload(namespace, name, queue, priority, resource, units));
        return this;
    }

    /** One scheduling cycle, as Kueue's test runs one. */
    CycleResult schedule() {
        return engine.schedule(1_000);
    }

    static List<String> evicted(CycleResult r) {
        List<String> out = new ArrayList<>();
        for (Eviction e : r.evictions()) {
            out.add(e.workload().namespace() + "/" + e.workload().name() + " " + e.preemptionReason());
        }
        return out;
    }

    static List<String> admitted(CycleResult r) {
        List<String> out = new ArrayList<>();
        for (Admission a : r.admissions()) {
            out.add(a.workload().namespace() + "/" + a.workload().name() + " " + a.assignment().clusterQueue() + " "
                    + a.assignment().podSets().get(0).flavors().values());
        }
        return out;
    }

    static String message(CycleResult r, String namespace, String name) {
        return Fixtures.lastMessage(r, new WorkloadKey(namespace, name));
    }
}
