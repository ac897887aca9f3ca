package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one pod asks the scheduler for, per resource, computed exactly (BigDecimal, base units: cores, bytes,
 * devices), the way Kubernetes computes a pod's effective request:
 * <ul>
 * <li>a container's request for a resource is its request, or its limit when only a limit is given
 *     (Kubernetes defaults the request to the limit);</li>
 * <li>regular containers add up; an init container runs alone, so the pod needs the largest of them;
 *     sidecars (init containers with {@code restartPolicy: Always}) keep running, so they add to the
 *     regular containers and to every init container started after them;</li>
 * <li>pod {@code overhead} is added on top.</li>
 * </ul>
 */
public final class PodDemand {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private PodDemand() {
    }

    /**
     * Per-pod demand, keyed by resource name (sorted), values with trailing zeros stripped so that equal
     * amounts are {@code equals}. Throws {@link InvalidJobException} (field relative to the pod spec) for a
     * malformed or negative quantity.
     */
    public static SortedMap<String, BigDecimal> of(PodSpec spec) {
        TreeMap<String, BigDecimal> regular = new TreeMap<>();
        List<Container> containers = nonNull(spec.getContainers());
        for (int i = 0; i < containers.size(); i++) {
            addAll(regular, containerRequests(containers.get(i), "containers[" + i + "]"));
        }
        TreeMap<String, BigDecimal> sidecars = new TreeMap<>();
        TreeMap<String, BigDecimal> initPeak = new TreeMap<>();
        List<Container> inits = nonNull(spec.getInitContainers());
        for (int i = 0; i < inits.size(); i++) {
            Container c = inits.get(i);
            Map<String, BigDecimal> r = containerRequests(c, "initContainers[" + i + "]");
            TreeMap<String, BigDecimal> whileRunning = new TreeMap<>(sidecars);
            addAll(whileRunning, r);
            if ("Always".equals(c.getRestartPolicy())) {
                addAll(sidecars, r);
            }
            maxAll(initPeak, whileRunning);
        }
        TreeMap<String, BigDecimal> total = new TreeMap<>(regular);
        addAll(total, sidecars);
        maxAll(total, initPeak);
        Map<String, Quantity> overhead = spec.getOverhead();
        if (overhead != null) {
            for (Map.Entry<String, Quantity> e : overhead.entrySet()) {
                total.merge(e.getKey(), amount(e.getValue(), "overhead." + e.getKey()), BigDecimal::add);
            }
        }
        total.replaceAll((k, v) -> normalize(v));
        return Collections.unmodifiableSortedMap(total);
    }

    /** {@link #of} in milli-units, each rounded up (as Kubernetes' MilliValue). */
    public static SortedMap<String, Long> milliOf(PodSpec spec) {
        TreeMap<String, Long> out = new TreeMap<>();
        of(spec).forEach((k, v) -> out.put(k, milli(v)));
        return Collections.unmodifiableSortedMap(out);
    }

    /** An amount in milli-units, rounded up (toward positive infinity), exact; throws if it exceeds a long. */
    public static long milli(BigDecimal amount) {
        BigDecimal m = amount.multiply(THOUSAND).setScale(0, RoundingMode.CEILING);
        try {
            return m.longValueExact();
        } catch (ArithmeticException e) {
            throw new ArithmeticException(amount.toPlainString() + " is too large to count in milli-units (max "
                    + Long.MAX_VALUE + "m)");
        }
    }

    /** A quantity in milli-units, rounded up. */
    public static long milli(Quantity q) {
        return milli(amount(q, "quantity"));
    }

    /** The exact numerical amount of a quantity (e.g. 200Mi = 209715200, 100m = 0.1). */
    public static BigDecimal amount(Quantity q, String field) {
        BigDecimal v;
        try {
            v = q.getNumericalAmount();
        } catch (RuntimeException e) {
            throw new InvalidJobException(null, field, "\"" + q + "\" is not a quantity",
                    "write a number with an optional suffix, such as 500m, 2, 1Gi or 4");
        }
        if (v.signum() < 0) {
            throw new InvalidJobException(null, field, "must not be negative, found " + q, "use a quantity >= 0");
        }
        return v;
    }

    private static Map<String, BigDecimal> containerRequests(Container c, String path) {
        TreeMap<String, BigDecimal> out = new TreeMap<>();
        ResourceRequirements rr = c.getResources();
        if (rr == null) {
            return out;
        }
        if (rr.getLimits() != null) {
            rr.getLimits().forEach((k, q) -> out.put(k, amount(q, path + ".resources.limits." + k)));
        }
        if (rr.getRequests() != null) {
            rr.getRequests().forEach((k, q) -> out.put(k, amount(q, path + ".resources.requests." + k)));
        }
        return out;
    }

    private static void addAll(Map<String, BigDecimal> into, Map<String, BigDecimal> more) {
        more.forEach((k, v) -> into.merge(k, v, BigDecimal::add));
    }

    private static void maxAll(Map<String, BigDecimal> into, Map<String, BigDecimal> other) {
        other.forEach((k, v) -> into.merge(k, v, BigDecimal::max));
    }

    private static BigDecimal normalize(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }

    private static <T> List<T> nonNull(List<T> l) {
        return l == null ? List.of() : l;
    }
}
