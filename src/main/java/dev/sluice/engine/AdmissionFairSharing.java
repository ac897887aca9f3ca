package dev.sluice.engine;

import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's admissionFairSharing configuration: each LocalQueue's consumed resources decay with a half-life
 * (usageHalfLifeTime) and are sampled every usageSamplingInterval (Kueue's default 5m); resourceWeights weigh each
 * resource in the LocalQueue's usage (a resource not named weighs 1). Off, or for ClusterQueues whose admission mode
 * is not UsageBasedAdmissionFairSharing, heads keep the usual priority/timestamp order. Times are in milliseconds
 * of the engine's own clock (the now arguments).
 */
public record AdmissionFairSharing(boolean enabled, long usageHalfLifeMillis, long usageSamplingIntervalMillis,
                                   Map<String, Double> resourceWeights) {
    public static final long DEFAULT_SAMPLING_INTERVAL_MILLIS = 5 * 60_000L;
    public static final AdmissionFairSharing OFF = new AdmissionFairSharing(false, 0, DEFAULT_SAMPLING_INTERVAL_MILLIS,
            null);

    public AdmissionFairSharing {
        if (usageHalfLifeMillis < 0) {
            throw new IllegalArgumentException("admissionFairSharing.usageHalfLifeTime must not be negative, got "
                    + usageHalfLifeMillis + "ms");
        }
        if (usageSamplingIntervalMillis <= 0) {
            throw new IllegalArgumentException("admissionFairSharing.usageSamplingInterval must be positive, got "
                    + usageSamplingIntervalMillis + "ms");
        }
        Map<String, Double> w = new TreeMap<>(resourceWeights == null ? Map.of() : resourceWeights);
        w.forEach((resource, weight) -> {
            if (weight == null || weight < 0 || weight.isNaN() || weight.isInfinite()) {
                throw new IllegalArgumentException("admissionFairSharing.resourceWeights." + resource
                        + " must be a finite number >= 0, got " + weight);
            }
        });
        resourceWeights = Map.copyOf(w);
    }

    public static AdmissionFairSharing on(long usageHalfLifeMillis, long usageSamplingIntervalMillis) {
        return new AdmissionFairSharing(true, usageHalfLifeMillis, usageSamplingIntervalMillis, null);
    }

    double resourceWeight(String resource) {
        return resourceWeights.getOrDefault(resource, 1.0);
    }

    /**
     * The share of the newest sample after elapsed ms: 1 - 0.5^(elapsed/halfLife), so what was consumed halves
     * every half-life. A zero half-life gives 0, as Kueue v0.19's calculateAlphaRate: usage is "reset to 0
     * immediately" (no consumed resources, no entry penalty), so the LocalQueues tie and the usual order decides.
     */
    double alpha(long elapsedMillis) {
        if (usageHalfLifeMillis == 0) {
            return 0.0;
        }
        return 1.0 - Math.pow(0.5, (double) elapsedMillis / usageHalfLifeMillis);
    }
}
