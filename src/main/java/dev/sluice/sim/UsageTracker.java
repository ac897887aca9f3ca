package dev.sluice.sim;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorResource;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.ResourceQuota;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Quota in use per ClusterQueue, flavor and resource over virtual time, from the admissions and releases seen. */
public final class UsageTracker {

    /** One ClusterQueue's use of one flavor's resource: its nominal quota, a step series, peak and integral. */
    public static final class Series {
        final String clusterQueue;
        final FlavorResource flavorResource;
        final long nominal;
        final List<long[]> points = new ArrayList<>();
        long current;
        long peak;
        long lastChange;
        /** milli-units × milliseconds. */
        double integral;

        Series(String clusterQueue, FlavorResource flavorResource, long nominal) {
            this.clusterQueue = clusterQueue;
            this.flavorResource = flavorResource;
            this.nominal = nominal;
            points.add(new long[] {0, 0});
        }

        void change(long now, long delta) {
            integral += (double) current * (now - lastChange);
            lastChange = now;
            current += delta;
            peak = Math.max(peak, current);
            long[] last = points.get(points.size() - 1);
            if (last[0] == now) {
                last[1] = current;
            } else {
                points.add(new long[] {now, current});
            }
        }

        public String clusterQueue() {
            return clusterQueue;
        }

        public FlavorResource flavorResource() {
            return flavorResource;
        }

        /** Nominal quota in milli-units. */
        public long nominal() {
            return nominal;
        }

        public long peak() {
            return peak;
        }

        /** Steps as {time ms, usage milli}, starting at {0, 0}. */
        public List<long[]> points() {
            return points;
        }

        /** Average usage (milli-units) over [0, end]. */
        public double average(long end) {
            if (end <= 0) {
                return 0;
            }
            return (integral + (double) current * (end - lastChange)) / end;
        }
    }

    private final Map<String, Series> series = new TreeMap<>();

    public UsageTracker(List<ClusterQueueSpec> clusterQueues) {
        for (ClusterQueueSpec cq : clusterQueues) {
            for (ResourceGroupSpec rg : cq.resourceGroups()) {
                for (FlavorQuotas fq : rg.flavors()) {
                    for (ResourceQuota q : fq.resources()) {
                        FlavorResource fr = new FlavorResource(fq.flavor(), q.resource());
                        series.put(key(cq.name(), fr), new Series(cq.name(), fr, q.nominal()));
                    }
                }
            }
        }
    }

    void add(long now, String clusterQueue, Map<FlavorResource, Long> usage, int sign) {
        usage.forEach((fr, v) -> {
            Series s = series.computeIfAbsent(key(clusterQueue, fr), k -> new Series(clusterQueue, fr, 0));
            s.change(now, sign * v);
        });
    }

    /** Every series, sorted by ClusterQueue, flavor and resource. */
    public List<Series> series() {
        return List.copyOf(series.values());
    }

    private static String key(String cq, FlavorResource fr) {
        return cq + "\u0000" + fr.flavor() + "\u0000" + fr.resource();
    }
}
