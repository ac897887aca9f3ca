package dev.sluice.jobs;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory a Spark driver or executor pod requests, as Spark on Kubernetes computes it
 * ({@code BasicDriverFeatureStep} / {@code BasicExecutorFeatureStep}), in whole MiB:
 * {@code memory + overhead}, where memory is {@code spec.<role>.memory} (Spark's default 1g), and overhead is
 * {@code spec.<role>.memoryOverhead} when given, else {@code max(trunc(factor × memory), 384)}; the factor is
 * {@code spec.memoryOverheadFactor}, else 0.1 for JVM applications (Java, Scala) and 0.4 for Python and R.
 * The same constants are in spark-operator's {@code pkg/common} (DefaultJVMMemoryOverheadFactor,
 * DefaultNonJVMMemoryOverheadFactor, MinMemoryOverhead). Spark sets the limit equal to the request.
 */
final class SparkMemory {
    static final long MIN_OVERHEAD_MIB = 384;
    static final long DEFAULT_MEMORY_MIB = 1024;
    private static final Pattern JAVA_SIZE = Pattern.compile("([0-9]+)([a-z]+)?");
    private static final Map<String, Long> UNIT_BYTES = Map.ofEntries(
            Map.entry("b", 1L), Map.entry("k", 1L << 10), Map.entry("kb", 1L << 10),
            Map.entry("m", 1L << 20), Map.entry("mb", 1L << 20), Map.entry("g", 1L << 30),
            Map.entry("gb", 1L << 30), Map.entry("t", 1L << 40), Map.entry("tb", 1L << 40),
            Map.entry("p", 1L << 50), Map.entry("pb", 1L << 50));

    private SparkMemory() {
    }

    /** The pod's memory request in MiB. */
    static long podMiB(String memory, String overhead, String factor, String type, String ref, String rolePath) {
        long memoryMiB = memory == null ? DEFAULT_MEMORY_MIB : mib(memory, ref, rolePath + ".memory");
        if (overhead != null) {
            return memoryMiB + mib(overhead, ref, rolePath + ".memoryOverhead");
        }
        BigDecimal f = factor(factor, type, ref);
        long proportional = f.multiply(BigDecimal.valueOf(memoryMiB)).longValue();
        return memoryMiB + Math.max(proportional, MIN_OVERHEAD_MIB);
    }

    /** A JVM memory string (e.g. 512m, 2g, 1024) in whole MiB, truncated; no unit means MiB (Spark's rule). */
    static long mib(String value, String ref, String path) {
        Matcher m = JAVA_SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
        Long unit = m.matches() ? (m.group(2) == null ? (Long) (1L << 20) : UNIT_BYTES.get(m.group(2))) : null;
        if (unit == null) {
            throw new InvalidJobException(ref, path, "\"" + value + "\" is not a JVM memory size",
                    "write a whole number with an optional unit b, k, m, g, t or p, such as 512m or 2g");
        }
        try {
            return Math.multiplyExact(Long.parseLong(m.group(1)), unit) >> 20;
        } catch (ArithmeticException | NumberFormatException e) {
            throw new InvalidJobException(ref, path, "\"" + value + "\" is too large", "use a smaller size");
        }
    }

    private static BigDecimal factor(String factor, String type, String ref) {
        if (factor != null) {
            try {
                BigDecimal f = new BigDecimal(factor.trim());
                if (f.signum() >= 0) {
                    return f;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new InvalidJobException(ref, "spec.memoryOverheadFactor", "\"" + factor
                    + "\" is not a number >= 0", "write a fraction such as \"0.2\"");
        }
        return "Python".equals(type) || "R".equals(type) ? new BigDecimal("0.4") : new BigDecimal("0.1");
    }
}
