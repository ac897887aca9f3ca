package dev.sluice.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A cohort: a node of the quota tree whose children are ClusterQueues and cohorts. A cohort created as an object
 * (spec set) may have a parent and quota of its own, a pool for its subtree; one only named by a ClusterQueue or
 * as a parent is implicit: no quota of its own and no parent (Kueue's implicit cohort).
 */
final class CohortState extends QuotaNode {
    /** Unlisted quota of a cohort: nothing of its own, borrowing and lending not limited. */
    private static final FlavorResourceQuota NONE = new FlavorResourceQuota(0, null, null);

    CohortSpec spec;
    final TreeMap<String, ClusterQueueState> members = new TreeMap<>();
    final TreeMap<String, CohortState> childCohorts = new TreeMap<>();
    /** The parent cycle this cohort's chain runs into (names in order), or null; set by the cache. */
    List<String> cycle;
    /**
     * Every (flavor, resource) with quota anywhere in this subtree, zero quotas and quota kept by a lending limit
     * included: Kueue's root subtree quota lists them all (it accumulates even zeros), and a dominant share's
     * lendable is summed over them. The subtree quota map leaves zeros out, so a tree whose only quota is kept below
     * a lending limit of 0 would otherwise have nothing lendable and every share 0.
     */
    final Set<FlavorResource> treeResources = new HashSet<>();

    CohortState(String name) {
        super(name);
    }

    @Override
    FlavorResourceQuota missingQuota() {
        return NONE;
    }

    void setSpec(CohortSpec spec) {
        this.spec = spec;
        quotas.clear();
        if (spec == null) {
            return;
        }
        for (ResourceGroupSpec rg : spec.resourceGroups()) {
            for (FlavorQuotas fq : rg.flavors()) {
                for (ResourceQuota q : fq.resources()) {
                    quotas.put(new FlavorResource(fq.flavor(), q.resource()),
                            new FlavorResourceQuota(q.nominal(), q.borrowingLimit(), q.lendingLimit()));
                }
            }
        }
    }

    /** The parent the spec names, or null (implicit cohorts have none). */
    String declaredParent() {
        return spec == null ? null : spec.parent();
    }

    boolean isEmpty() {
        return members.isEmpty() && childCohorts.isEmpty();
    }

    /** Rebuilds subtree quota and usage of this subtree from the queues' usage up (after the tree changed). */
    void recompute() {
        subtreeQuota.clear();
        usage.clear();
        treeResources.clear();
        treeResources.addAll(quotas.keySet());
        for (Map.Entry<FlavorResource, FlavorResourceQuota> q : quotas.entrySet()) {
            if (q.getValue().nominal() != 0) {
                subtreeQuota.put(q.getKey(), q.getValue().nominal());
            }
        }
        for (CohortState child : childCohorts.values()) {
            child.recompute();
            child.accumulateInto(this);
            treeResources.addAll(child.treeResources);
        }
        for (ClusterQueueState cq : members.values()) {
            cq.accumulateInto(this);
            treeResources.addAll(cq.quotas.keySet());
        }
    }

    /** Every ClusterQueue of the subtree, in name order per level. */
    void forEachQueue(Consumer<ClusterQueueState> action) {
        members.values().forEach(action);
        for (CohortState child : childCohorts.values()) {
            child.forEachQueue(action);
        }
    }

    List<ClusterQueueState> queuesOfSubtree() {
        List<ClusterQueueState> out = new ArrayList<>();
        forEachQueue(out::add);
        return out;
    }

    /**
     * The subtree's figures as Kueue's cohort metrics count them (pkg/cache/scheduler cohort_metrics.go): quota is the
     * subtree quota (the cohort's own pool plus what each child may lend it, the node's {@code subtreeQuota}), usage
     * is every ClusterQueue's usage of the whole subtree summed, and the ClusterQueues are the whole subtree's.
     */
    CohortStatus status() {
        Map<FlavorResource, Long> nominal = new TreeMap<>();
        subtreeQuota.forEach((fr, q) -> {
            if (q != 0) {
                nominal.put(fr, q);
            }
        });
        Map<FlavorResource, Long> used = new TreeMap<>();
        List<String> queues = new ArrayList<>();
        for (ClusterQueueState cq : queuesOfSubtree()) {
            queues.add(cq.name);
            cq.usageView().forEach((fr, u) -> used.merge(fr, u, Long::sum));
        }
        queues.sort(null);
        return new CohortStatus(name, List.copyOf(queues), List.copyOf(members.keySet()),
                List.copyOf(childCohorts.keySet()), nominal, used);
    }
}
