package dev.sluice.controller.session;

import dev.sluice.engine.FairSharing;
import dev.sluice.engine.FairSharingStrategy;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * {@code sluice.fair-sharing.*}: Kueue's {@code fairSharing} block as Sluice properties (a Kueue configuration file
 * maps onto the same settings). Off by default, as in Kueue.
 */
@ConfigMapping(prefix = "sluice.fair-sharing")
public interface FairSharingConfig {

    /** Kueue's {@code fairSharing.enable}: admission order by weighted share and preemption between queues by share. */
    @WithDefault("false")
    boolean enabled();

    /**
     * Kueue's {@code preemptionStrategies}, tried in order (comma-separated); unset: LessThanOrEqualToFinalShare,
     * LessThanInitialShare.
     */
    Optional<List<FairSharingStrategy>> preemptionStrategies();

    /** The engine's form. */
    default FairSharing settings() {
        return enabled() ? new FairSharing(true, preemptionStrategies().orElse(null)) : FairSharing.OFF;
    }
}
