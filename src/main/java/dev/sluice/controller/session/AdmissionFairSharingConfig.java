package dev.sluice.controller.session;

import dev.sluice.engine.AdmissionFairSharing;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/**
 * {@code sluice.admission-fair-sharing.*}: Kueue's {@code admissionFairSharing} block as Sluice properties (a Kueue
 * configuration file maps onto the same settings). Off by default: in Kueue v0.19 the block being in the
 * configuration switches it on. Only ClusterQueues with {@code admissionScope.admissionMode:
 * UsageBasedAdmissionFairSharing} order their LocalQueues by usage.
 */
@ConfigMapping(prefix = "sluice.admission-fair-sharing")
public interface AdmissionFairSharingConfig {

    @WithDefault("false")
    boolean enabled();

    /** Kueue's {@code usageHalfLifeTime} (required there, no default): 0 resets usage to 0, as Kueue does. */
    @WithDefault("PT0S")
    Duration usageHalfLifeTime();

    /** Kueue's {@code usageSamplingInterval} (default 5m). */
    @WithDefault("PT5M")
    Duration usageSamplingInterval();

    /** Kueue's {@code resourceWeights}: resource name to weight; a resource not named weighs 1. */
    Map<String, Double> resourceWeights();

    /** The engine's form (bad values are refused with the field named). */
    default AdmissionFairSharing settings() {
        if (!enabled()) {
            return AdmissionFairSharing.OFF;
        }
        return new AdmissionFairSharing(true, usageHalfLifeTime().toMillis(), usageSamplingInterval().toMillis(),
                resourceWeights());
    }
}
