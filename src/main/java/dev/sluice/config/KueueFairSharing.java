package dev.sluice.config;

import dev.sluice.engine.FairSharingStrategy;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's {@code fairSharing} block as Sluice's {@code sluice.fair-sharing.*} properties. In
 * {@code config.kueue.x-k8s.io/v1beta1} {@code enable: true} switches it on; in v1beta2 (which has no {@code enable})
 * the block being there does. {@code preemptionStrategies} are Kueue's names, tried in order.
 */
final class KueueFairSharing {

    static final String ENABLED = "sluice.fair-sharing.enabled";
    static final String STRATEGIES = "sluice.fair-sharing.preemption-strategies";

    private KueueFairSharing() {
    }

    /** The properties the block sets (none when the file has no block). */
    static Map<String, String> properties(KueueConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        KueueConfig.FairSharing fs = config.fairSharing();
        if (fs == null) {
            return out;
        }
        out.put(ENABLED, Boolean.toString(enabled(config)));
        if (fs.preemptionStrategies() != null && !fs.preemptionStrategies().isEmpty()) {
            out.put(STRATEGIES, String.join(",", fs.preemptionStrategies()));
        }
        return out;
    }

    /** What start-up says about the block; adds a refusal for a strategy Kueue does not have. */
    static void report(KueueConfig config, List<String> notices, List<String> refusals) {
        KueueConfig.FairSharing fs = config.fairSharing();
        if (fs == null) {
            return;
        }
        if (fs.preemptionStrategies() != null) {
            for (String s : fs.preemptionStrategies()) {
                if (Arrays.stream(FairSharingStrategy.values()).noneMatch(v -> v.name().equals(s))) {
                    refusals.add("fairSharing.preemptionStrategies: " + s + ": refused: not one of Kueue's strategies ("
                            + String.join(", ", Arrays.stream(FairSharingStrategy.values()).map(Enum::name).toList()) + ")");
                }
            }
        }
        if (v1beta2(config) && fs.enable() != null) {
            notices.add("fairSharing.enable: ignored: config.kueue.x-k8s.io/v1beta2 has no enable; the fairSharing block"
                    + " itself switches fair sharing on (remove the block to switch it off)");
        }
        notices.add("fairSharing: applied as " + String.join(", ", properties(config).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()));
    }

    private static boolean enabled(KueueConfig config) {
        return v1beta2(config) || Boolean.TRUE.equals(config.fairSharing().enable());
    }

    private static boolean v1beta2(KueueConfig config) {
        return "config.kueue.x-k8s.io/v1beta2".equals(config.apiVersion());
    }
}
