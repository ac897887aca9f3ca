package dev.sluice.sim;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FlavorResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cohort tree of a scenario and every node's weighted share (Kueue's status.fairSharing.weightedShare) over
 * virtual time: sampled after each instant, kept as a step series per node, so the report can give its average and
 * peak, and a window's average (how close the shares come to the weights under steady load).
 */
public final class ShareTracker {

    /** One node's share as a step series: {time ms, share}; a zero weight that borrows is +Inf. */
    public static final class Series {
        private final List<double[]> points = new ArrayList<>();

        void add(long time, double share) {
            if (!points.isEmpty() && points.get(points.size() - 1)[1] == share) {
                return;
            }
            points.add(new double[] {time, share});
        }

        /** The time-weighted average share over [from, to]. */
        public double average(long from, long to) {
            if (to <= from) {
                return 0;
            }
            double sum = 0;
            for (int i = 0; i < points.size(); i++) {
                double start = Math.max(from, points.get(i)[0]);
                double end = Math.min(to, i + 1 < points.size() ? points.get(i + 1)[0] : to);
                if (end > start) {
                    sum += points.get(i)[1] * (end - start);
                }
            }
            return sum / (to - from);
        }

        public double peak() {
            return points.stream().mapToDouble(p -> p[1]).max().orElse(0);
        }
    }

    private final Map<String, String> parentOf = new TreeMap<>();
    private final Map<String, Double> cohortWeights = new TreeMap<>();
    private final Map<String, String> cohortOf = new TreeMap<>();
    private final Map<String, Series> clusterQueues = new TreeMap<>();
    private final Map<String, Series> cohorts = new TreeMap<>();

    ShareTracker(List<ClusterQueueSpec> queues, List<CohortSpec> cohortObjects) {
        for (CohortSpec c : cohortObjects) {
            cohortWeights.put(c.name(), c.weight());
            if (c.parent() != null) {
                parentOf.put(c.name(), c.parent());
            }
        }
        for (ClusterQueueSpec cq : queues) {
            if (cq.cohort() != null) {
                cohortOf.put(cq.name(), cq.cohort());
            }
        }
    }

    void sample(long now, Engine engine) {
        for (String name : engine.clusterQueueNames()) {
            clusterQueues.computeIfAbsent(name, n -> new Series()).add(now, value(engine.clusterQueueWeightedShare(name)));
        }
        for (String name : engine.cohortNames()) {
            cohorts.computeIfAbsent(name, n -> new Series()).add(now, value(engine.cohortWeightedShare(name)));
        }
    }

    private static double value(OptionalLong share) {
        if (share.isEmpty()) {
            return 0;
        }
        return share.getAsLong() == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : share.getAsLong();
    }

    public Map<String, Series> clusterQueueShares() {
        return clusterQueues;
    }

    public Map<String, Series> cohortShares() {
        return cohorts;
    }

    /** Every cohort of the tree (objects, and those only named), sorted. */
    public List<String> cohortNames() {
        TreeSet<String> all = new TreeSet<>(cohorts.keySet());
        all.addAll(cohortWeights.keySet());
        all.addAll(cohortOf.values());
        return List.copyOf(all);
    }

    /** The parent cohort, or null for a root. */
    public String parent(String cohort) {
        return parentOf.get(cohort);
    }

    /** The cohort's fair-sharing weight (1 for a cohort without object or weight). */
    public double weight(String cohort) {
        return cohortWeights.getOrDefault(cohort, 1.0);
    }

    /** The ClusterQueues of the cohort's subtree (under it at any depth), sorted. */
    public List<String> queuesUnder(String cohort) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : cohortOf.entrySet()) {
            if (isUnder(e.getValue(), cohort)) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    private boolean isUnder(String node, String cohort) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String c = node; c != null && seen.add(c); c = parentOf.get(c)) {
            if (c.equals(cohort)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Per flavor and resource of the subtree: {nominal quota of its ClusterQueues, their average usage} from the usage
     * series (milli-units); the cohorts' own quota pools are not in it.
     */
    Map<FlavorResource, double[]> subtreeUsage(String cohort, UsageTracker usage, long end) {
        Map<FlavorResource, double[]> out = new LinkedHashMap<>();
        List<String> queues = queuesUnder(cohort);
        for (UsageTracker.Series s : usage.series()) {
            if (queues.contains(s.clusterQueue())) {
                double[] acc = out.computeIfAbsent(s.flavorResource(), fr -> new double[2]);
                acc[0] += s.nominal();
                acc[1] += s.average(end);
            }
        }
        return out;
    }
}
