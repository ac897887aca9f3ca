package dev.sluice.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kueue's {@code waitForPodsReady} block as {@code sluice.wait-for-pods-ready.*} properties, with the defaults of the
 * file's own version, as Kueue v0.19 fills them in ({@code apis/config/v1beta1|v1beta2/defaults.go}):
 * <ul>
 * <li>v1beta2: always on (the block has no {@code enable}); timeout 30m, recoveryTimeout the timeout, blockAdmission
 * off. These are Sluice's defaults too, so only what the file sets is mapped.</li>
 * <li>v1beta1: off unless {@code enable: true} (a file without the block turns it off); once on, timeout 5m,
 * blockAdmission <em>on</em>, recoveryTimeout the timeout.</li>
 * </ul>
 * {@code recoveryTimeout: 0s} switches the recovery timeout off, as in Kueue. Requeuing's base, max and limit map
 * one to one; {@code timestamp} must be Eviction or Creation.
 */
final class WaitForPodsReadyMapping {

    static final String PREFIX = "sluice.wait-for-pods-ready.";
    static final String V1BETA1 = "config.kueue.x-k8s.io/v1beta1";
    /** Kueue v1beta1's timeout when enabled without one. */
    static final String V1BETA1_DEFAULT_TIMEOUT = "PT5M";
    /** One Go duration term: a decimal number and a unit (Go's time.ParseDuration). */

    private WaitForPodsReadyMapping() {
    }

    /** The properties the block (null: absent) sets in a file of {@code apiVersion}; bad values name the field. */
    static Map<String, String> properties(String file, String apiVersion, KueueConfig.WaitForPodsReady block) {
        Map<String, String> p = new LinkedHashMap<>();
        boolean v1beta1 = V1BETA1.equals(apiVersion);
        if (v1beta1 && (block == null || !Boolean.TRUE.equals(block.enable()))) {
            p.put(PREFIX + "enabled", "false");
            return p;
        }
        if (block == null) {
            return p;
        }
        if (block.enable() != null) {
            p.put(PREFIX + "enabled", block.enable().toString());
        }
        String timeout = block.timeout() == null ? (v1beta1 ? V1BETA1_DEFAULT_TIMEOUT : null)
                : duration(file, "timeout", block.timeout()).toString();
        if (timeout != null) {
            p.put(PREFIX + "timeout", timeout);
        }
        if (block.recoveryTimeout() != null) {
            p.put(PREFIX + "recovery-timeout", duration(file, "recoveryTimeout", block.recoveryTimeout()).toString());
        }
        Boolean blocks = block.blockAdmission() != null ? block.blockAdmission() : v1beta1 ? Boolean.TRUE : null;
        if (blocks != null) {
            p.put(PREFIX + "block-admission", blocks.toString());
        }
        KueueConfig.RequeuingStrategy rs = block.requeuingStrategy();
        if (rs != null) {
            if (rs.timestamp() != null) {
                if (!rs.timestamp().equals("Eviction") && !rs.timestamp().equals("Creation")) {
                    throw new KueueConfigException(file + ": waitForPodsReady.requeuingStrategy.timestamp: \""
                            + rs.timestamp() + "\" is neither Eviction nor Creation (Kueue's two values)");
                }
                p.put(PREFIX + "requeuing-strategy.timestamp", rs.timestamp());
            }
            if (rs.backoffBaseSeconds() != null) {
                p.put(PREFIX + "backoff-base-seconds", rs.backoffBaseSeconds().toString());
            }
            if (rs.backoffMaxSeconds() != null) {
                p.put(PREFIX + "backoff-max-seconds", rs.backoffMaxSeconds().toString());
            }
            if (rs.backoffLimitCount() != null) {
                p.put(PREFIX + "backoff-limit-count", rs.backoffLimitCount().toString());
            }
        }
        return p;
    }

    /** The start-up notice: which properties the block became. */
    static String notice(Map<String, String> properties, KueueConfig.WaitForPodsReady block) {
        String what = block == null ? "waitForPodsReady: absent" : "waitForPodsReady";
        if (properties.isEmpty()) {
            return what + ": applied: Kueue v0.19's defaults, which are Sluice's";
        }
        return what + ": applied as " + String.join(", ", properties.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList())
                + " (a sluice.wait-for-pods-ready.* environment variable or system property wins)";
    }

    /** A Go duration (5m, 1h30m, 90s, 1.5h, 0s) as a Java one; anything else names the field. */
    static Duration duration(String file, String field, String value) {
        Duration d = GoDuration.parse(value);
        if (d == null || d.isNegative()) {
            throw new KueueConfigException(file + ": waitForPodsReady." + field + ": \"" + value
                    + "\" is not a duration (Kueue takes Go's form: 30m, 1h30m, 90s)");
        }
        return d;
    }
}
