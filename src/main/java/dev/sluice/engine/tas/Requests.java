package dev.sluice.engine.tas;

import java.util.Map;
import java.util.TreeMap;

/** Resource arithmetic over milli-unit maps, as Kueue's pkg/resources Requests (a missing resource is zero). */
final class Requests {
    /** One pod of resource {@code pods}, which Kueue adds to every per-pod request (resources.OnePodRequest). */
    static final String PODS = "pods";
    static final long ONE_POD = 1000;

    private Requests() {
    }

    static TreeMap<String, Long> copy(Map<String, Long> r) {
        return r == null ? new TreeMap<>() : new TreeMap<>(r);
    }

    static TreeMap<String, Long> withOnePod(Map<String, Long> perPod) {
        TreeMap<String, Long> r = copy(perPod);
        r.merge(PODS, ONE_POD, Long::sum);
        return r;
    }

    static void add(Map<String, Long> into, Map<String, Long> r) {
        r.forEach((k, v) -> into.merge(k, v, Long::sum));
    }

    static void sub(Map<String, Long> into, Map<String, Long> r) {
        r.forEach((k, v) -> into.merge(k, -v, Long::sum));
    }

    static TreeMap<String, Long> scaled(Map<String, Long> r, long factor) {
        TreeMap<String, Long> out = new TreeMap<>();
        r.forEach((k, v) -> out.put(k, v * factor));
        return out;
    }

    /** Usage of count pods on one domain: the requests times count, plus count pods (Kueue's ComputeUsagePerDomain). */
    static TreeMap<String, Long> usageOf(Map<String, Long> singlePodRequests, int count) {
        TreeMap<String, Long> u = scaled(singlePodRequests, count);
        u.merge(PODS, ONE_POD * count, Long::sum);
        return u;
    }

    /** How many times requests fit into capacity (Kueue's CountIn); 0 for empty requests. */
    static int countIn(Map<String, Long> requests, Map<String, Long> capacity) {
        return countInWithLimitingResource(requests, capacity).count();
    }

    record Fit(int count, String limitingResource) {
    }

    /**
     * Kueue's CountInWithLimitingResource: the smallest count over the requested resources (a zero request counts as
     * unlimited, a negative capacity as none) and the resource giving it, ties to the smaller name.
     */
    static Fit countInWithLimitingResource(Map<String, Long> requests, Map<String, Long> capacity) {
        Integer result = null;
        String limiting = "";
        for (Map.Entry<String, Long> e : new TreeMap<>(requests).entrySet()) {
            long req = e.getValue();
            long cap = capacity.getOrDefault(e.getKey(), 0L);
            int count;
            if (req == 0) {
                count = Integer.MAX_VALUE;
            } else {
                count = (int) Math.max(0, Math.min(cap / req, Integer.MAX_VALUE));
            }
            if (result == null || count < result || (count == result && e.getKey().compareTo(limiting) < 0)) {
                result = count;
                limiting = e.getKey();
            }
        }
        return new Fit(result == null ? 0 : result, limiting);
    }
}
