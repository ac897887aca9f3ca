package dev.sluice.engine;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's dominant resource share of a node of the cohort tree: per resource, what the node uses beyond its subtree
 * quota (summed over flavors) over what its parent could ever lend it, times 1000; the largest such ratio, divided by
 * the node's fair-sharing weight. Zero when the node borrows nothing; a zero weight that borrows is infinite.
 */
record DominantResourceShare(double weight, double ratio, String dominantResource, Set<FlavorResource> borrowed) {
    static final DominantResourceShare NEGATIVE = new DominantResourceShare(1, -1, "", Set.of());

    static DominantResourceShare of(QuotaNode node) {
        double weight = weightOf(node);
        if (node.parent == null) {
            return new DominantResourceShare(weight, 0, "", Set.of());
        }
        Set<FlavorResource> frs = new HashSet<>(node.subtreeQuota.keySet());
        frs.addAll(node.usage.keySet());
        Map<String, Long> borrowing = new HashMap<>();
        Set<FlavorResource> borrowed = new HashSet<>();
        for (FlavorResource fr : frs) {
            long over = node.usage(fr) - node.subtreeQuota(fr);
            if (over > 0) {
                borrowing.merge(fr.resource(), over, Long::sum);
                borrowed.add(fr);
            }
        }
        if (borrowing.isEmpty()) {
            return new DominantResourceShare(weight, 0, "", Set.of());
        }
        Map<String, Long> lendable = lendable(node.parent);
        double best = 0;
        String dominant = "";
        for (Map.Entry<String, Long> e : new java.util.TreeMap<>(borrowing).entrySet()) {
            long lr = lendable.getOrDefault(e.getKey(), 0L);
            if (lr > 0) {
                double ratio = e.getValue() * 1000.0 / lr;
                if (ratio > best) {
                    best = ratio;
                    dominant = e.getKey();
                }
            }
        }
        return new DominantResourceShare(weight, best, dominant, borrowed);
    }

    private static double weightOf(QuotaNode node) {
        if (node instanceof ClusterQueueState cq) {
            return cq.spec == null ? 1.0 : cq.spec.weight();
        }
        CohortState c = (CohortState) node;
        return c.spec == null ? 1.0 : c.spec.weight();
    }

    /** Per resource, the most the node could ever take through parent (Kueue's calculateLendable). */
    private static Map<String, Long> lendable(CohortState parent) {
        Map<String, Long> out = new HashMap<>();
        for (FlavorResource fr : ((CohortState) parent.root()).treeResources) {
            out.merge(fr.resource(), parent.potentialAvailable(fr), Long::sum);
        }
        return out;
    }

    boolean isZero() {
        return ratio == 0;
    }

    boolean isBorrowing() {
        return !borrowed.isEmpty();
    }

    boolean isBorrowingOn(Map<FlavorResource, Long> request) {
        for (FlavorResource fr : borrowed) {
            if (request.getOrDefault(fr, 0L) > 0) {
                return true;
            }
        }
        return false;
    }

    private boolean zeroWeightBorrows() {
        return weight == 0 && !isZero();
    }

    double preciseWeightedShare() {
        if (isZero()) {
            return 0;
        }
        return weight == 0 ? Double.POSITIVE_INFINITY : ratio / weight;
    }

    /** Kueue's status value: rounded up; Long.MAX_VALUE for a zero weight that borrows. */
    long roundedWeightedShare() {
        return zeroWeightBorrows() ? Long.MAX_VALUE : (long) Math.ceil(preciseWeightedShare());
    }

    /** Lower means preferred for admission, higher preferred for preemption. */
    static int compare(DominantResourceShare a, DominantResourceShare b) {
        if (a.zeroWeightBorrows() && b.zeroWeightBorrows()) {
            return Double.compare(a.ratio, b.ratio);
        }
        if (a.zeroWeightBorrows()) {
            return 1;
        }
        if (b.zeroWeightBorrows()) {
            return -1;
        }
        return Double.compare(a.preciseWeightedShare(), b.preciseWeightedShare());
    }
}
