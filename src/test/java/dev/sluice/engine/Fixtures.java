package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small builders for engine tests. */
final class Fixtures {
    static final String TPU = "google.com/tpu";
    static final Map<String, String> VLP_LABELS = Map.of(
            "cloud.google.com/gke-tpu-accelerator", "tpu-v5-lite-podslice",
            "cloud.google.com/gke-tpu-topology", "2x4");

    private Fixtures() {
    }

    static FlavorSpec flavor(String name) {
        return new FlavorSpec(name, Map.of(), List.of(), List.of());
    }

    static FlavorSpec flavor(String name, Map<String, String> labels) {
        return new FlavorSpec(name, labels, List.of(), List.of());
    }

    static long units(long n) {
        return n * 1000;
    }

    /** One resource group, one resource, flavors with the given nominal quotas (units). */
    static ClusterQueueSpec cq(String name, String cohort, String resource, Object... flavorAndQuota) {
        List<FlavorQuotas> fq = new ArrayList<>();
        for (int i = 0; i < flavorAndQuota.length; i += 2) {
            fq.add(new FlavorQuotas((String) flavorAndQuota[i],
                    List.of(new ResourceQuota(resource, units(((Number) flavorAndQuota[i + 1]).longValue())))));
        }
        return new ClusterQueueSpec(name, cohort, List.of(new ResourceGroupSpec(List.of(resource), fq)),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), StopPolicy.None);
    }

    static ClusterQueueSpec withQuota(ClusterQueueSpec s, String resource, String flavor, long nominal,
                                      Long borrowingLimit, Long lendingLimit) {
        return new ClusterQueueSpec(s.name(), s.cohort(), List.of(new ResourceGroupSpec(List.of(resource),
                List.of(new FlavorQuotas(flavor, List.of(new ResourceQuota(resource, units(nominal),
                        borrowingLimit == null ? null : units(borrowingLimit),
                        lendingLimit == null ? null : units(lendingLimit))))))),
                s.queueingStrategy(), s.namespaceSelector(), s.preemption(), s.flavorFungibility(), s.stopPolicy());
    }

    static ClusterQueueSpec withPreemption(ClusterQueueSpec s, PreemptionSpec p) {
        return new ClusterQueueSpec(s.name(), s.cohort(), s.resourceGroups(), s.queueingStrategy(),
                s.namespaceSelector(), p, s.flavorFungibility(), s.stopPolicy());
    }

    static ClusterQueueSpec withStrategy(ClusterQueueSpec s, QueueingStrategy q) {
        return new ClusterQueueSpec(s.name(), s.cohort(), s.resourceGroups(), q, s.namespaceSelector(),
                s.preemption(), s.flavorFungibility(), s.stopPolicy());
    }

    static ClusterQueueSpec withSelector(ClusterQueueSpec s, LabelSelector sel) {
        return new ClusterQueueSpec(s.name(), s.cohort(), s.resourceGroups(), s.queueingStrategy(), sel,
                s.preemption(), s.flavorFungibility(), s.stopPolicy());
    }

    static ClusterQueueSpec withStop(ClusterQueueSpec s, StopPolicy stop) {
        return new ClusterQueueSpec(s.name(), s.cohort(), s.resourceGroups(), s.queueingStrategy(),
                s.namespaceSelector(), s.preemption(), s.flavorFungibility(), stop);
    }

    static ClusterQueueSpec withFungibility(ClusterQueueSpec s, FlavorFungibility f) {
        return new ClusterQueueSpec(s.name(), s.cohort(), s.resourceGroups(), s.queueingStrategy(),
                s.namespaceSelector(), s.preemption(), f, s.stopPolicy());
    }

    static LocalQueueSpec lq(String ns, String name, String cq) {
        return new LocalQueueSpec(ns, name, cq, StopPolicy.None);
    }

    static WorkloadKey key(String name) {
        return new WorkloadKey("default", name);
    }

    /** A workload with one pod set "main" of count pods, each requesting perPod units of resource. */
    static WorkloadSpec wl(String name, String queue, int priority, long created, String resource, int count,
                           long perPod) {
        return new WorkloadSpec(key(name), "uid-" + name, queue, priority, created,
                List.of(PodSetSpec.of("main", count, Map.of(resource, units(perPod)))), true);
    }

    static WorkloadSpec withPodSets(WorkloadSpec w, List<PodSetSpec> podSets) {
        return new WorkloadSpec(w.key(), w.uid(), w.queueName(), w.priority(), w.creationTimeMillis(), podSets,
                w.active());
    }

    /** Runs cycles until one decides nothing new; returns all results merged. */
    static CycleResult settle(Engine e, long now) {
        List<Admission> a = new ArrayList<>();
        List<Eviction> ev = new ArrayList<>();
        List<PendingStatus> p = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            CycleResult r = e.schedule(now);
            a.addAll(r.admissions());
            ev.addAll(r.evictions());
            p.addAll(r.pending());
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                return new CycleResult(a, ev, p);
            }
        }
        throw new AssertionError("engine did not settle");
    }

    static List<WorkloadKey> admitted(CycleResult r) {
        return r.admissions().stream().map(Admission::workload).toList();
    }

    static String lastMessage(CycleResult r, WorkloadKey k) {
        String m = null;
        for (PendingStatus s : r.pending()) {
            if (s.workload().equals(k)) {
                m = s.message();
            }
        }
        return m;
    }
}
