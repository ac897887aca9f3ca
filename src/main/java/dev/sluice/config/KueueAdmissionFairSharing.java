package dev.sluice.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's {@code admissionFairSharing} block as Sluice's {@code sluice.admission-fair-sharing.*} properties. As in
 * Kueue v0.19 (both config versions) the block being there switches admission fair sharing on; what it then changes
 * is the order inside ClusterQueues whose {@code admissionScope.admissionMode} is UsageBasedAdmissionFairSharing.
 */
final class KueueAdmissionFairSharing {

    static final String FIELD = "admissionFairSharing";
    static final String ENABLED = "sluice.admission-fair-sharing.enabled";
    static final String HALF_LIFE = "sluice.admission-fair-sharing.usage-half-life-time";
    static final String INTERVAL = "sluice.admission-fair-sharing.usage-sampling-interval";
    static final String WEIGHTS = "sluice.admission-fair-sharing.resource-weights";

    private KueueAdmissionFairSharing() {
    }

    /** The properties the block sets (none when the file has no block); a bad value stops the start, named. */
    static Map<String, String> properties(KueueConfig.AdmissionFairSharing afs, String file) {
        Map<String, String> out = new LinkedHashMap<>();
        if (afs == null) {
            return out;
        }
        out.put(ENABLED, "true");
        if (afs.usageHalfLifeTime() != null) {
            out.put(HALF_LIFE, duration(afs.usageHalfLifeTime(), "usageHalfLifeTime", file, true).toString());
        }
        if (afs.usageSamplingInterval() != null) {
            out.put(INTERVAL, duration(afs.usageSamplingInterval(), "usageSamplingInterval", file, false).toString());
        }
        if (afs.resourceWeights() != null) {
            new TreeMap<>(afs.resourceWeights()).forEach((resource, weight) -> {
                if (weight == null || weight < 0 || weight.isNaN() || weight.isInfinite()) {
                    throw new KueueConfigException(file + ": " + FIELD + ".resourceWeights." + resource + ": " + weight
                            + " is not a weight (a finite number >= 0; leave the resource out to weigh it 1)");
                }
                // quoted: a resource name holds dots and slashes (nvidia.com/gpu)
                out.put(WEIGHTS + ".\"" + resource + "\"", weight.toString());
            });
        }
        return out;
    }

    /** What start-up says about the block. */
    static void report(KueueConfig.AdmissionFairSharing afs, String file, List<String> notices) {
        if (afs == null) {
            return;
        }
        notices.add(FIELD + ": applied as " + String.join(", ", properties(afs, file).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList())
                + " (orders LocalQueues by usage in ClusterQueues with admissionScope.admissionMode: UsageBasedAdmissionFairSharing)");
    }

    private static Duration duration(String text, String name, String file, boolean zeroAllowed) {
        Duration d = GoDuration.parse(text);
        if (d == null) {
            throw new KueueConfigException(file + ": " + FIELD + "." + name + ": \"" + text
                    + "\" is not a duration (write it as Go does: 168h, 5m, 30s)");
        }
        if (d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new KueueConfigException(file + ": " + FIELD + "." + name + ": \"" + text + "\" must be "
                    + (zeroAllowed ? "0 or more" : "more than 0"));
        }
        return d;
    }
}
