package dev.sluice.controller.session;

import dev.sluice.readiness.RequeuingTimestamp;
import dev.sluice.readiness.WaitForPodsReady;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code sluice.wait-for-pods-ready.*}: Kueue's {@code waitForPodsReady} block as Sluice properties (a Kueue
 * configuration file maps onto the same settings). Defaults are Kueue v0.19's.
 */
@ConfigMapping(prefix = "sluice.wait-for-pods-ready")
public interface WaitForPodsReadyConfig {

    /** Kueue's {@code enable}. */
    @WithDefault("true")
    boolean enabled();

    @WithDefault("30m")
    Duration timeout();

    /** Unset: the timeout; 0s: no recovery timeout (as Kueue's {@code recoveryTimeout: 0s}). */
    Optional<Duration> recoveryTimeout();

    @WithDefault("false")
    boolean blockAdmission();

    RequeuingStrategy requeuingStrategy();

    @WithDefault("60")
    int backoffBaseSeconds();

    @WithDefault("3600")
    int backoffMaxSeconds();

    /** Unset: requeued without end. */
    OptionalInt backoffLimitCount();

    /** How often due timeouts and backoffs are looked for (they fire at most this late). */
    @WithDefault("1s")
    Duration checkPeriod();

    interface RequeuingStrategy {
        @WithDefault("Eviction")
        @WithName("timestamp")
        RequeuingTimestamp timestamp();
    }

    /** The settings as the rules take them; bad values are rejected with the property's name. */
    default WaitForPodsReady settings() {
        Duration recovery = recoveryTimeout().orElse(timeout());
        return new WaitForPodsReady(enabled(), timeout(), recovery.isZero() ? null : recovery, blockAdmission(),
                requeuingStrategy().timestamp(), backoffBaseSeconds(), backoffMaxSeconds(),
                backoffLimitCount().isPresent() ? backoffLimitCount().getAsInt() : null);
    }
}
