package dev.sluice.controller.session;

import io.smallrye.config.ConfigMapping;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code sluice.object-retention.workloads.*}: Kueue's {@code objectRetentionPolicies.workloads} as Sluice properties (a
 * Kueue configuration file maps onto the same). Unset keeps Workloads for ever, Kueue's default.
 */
@ConfigMapping(prefix = "sluice.object-retention.workloads")
public interface ObjectRetentionConfig {

    /** Kueue's {@code afterFinished}: delete a finished Workload this long after it finished. */
    Optional<Duration> afterFinished();

    /** Kueue's {@code afterDeactivatedByKueue}: delete a Workload (by its job) this long after Kueue deactivated it. */
    Optional<Duration> afterDeactivatedByKueue();

    /** The policy; a negative duration is refused with the property's name. */
    default WorkloadRetention policy() {
        return new WorkloadRetention(afterFinished().orElse(null), afterDeactivatedByKueue().orElse(null));
    }
}
