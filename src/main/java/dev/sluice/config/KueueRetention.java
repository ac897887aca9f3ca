package dev.sluice.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's {@code objectRetentionPolicies.workloads} as Sluice properties
 * ({@code sluice.object-retention.workloads.after-finished}, {@code .after-deactivated-by-kueue}). Kueue writes Go
 * durations ({@code 1h30m}, {@code 10m}, {@code 0s}); they become ISO-8601 ({@code PT1H30M}). A null or absent field is
 * infinite retention, as in Kueue; a negative or malformed one stops the start with the field named.
 */
final class KueueRetention {

    static final String FIELD = "objectRetentionPolicies";
    static final String AFTER_FINISHED = "sluice.object-retention.workloads.after-finished";
    static final String AFTER_DEACTIVATED = "sluice.object-retention.workloads.after-deactivated-by-kueue";


    private KueueRetention() {
    }

    static Map<String, String> properties(KueueConfig.ObjectRetentionPolicies policies, String file) {
        Map<String, String> out = new LinkedHashMap<>();
        if (policies == null || policies.workloads() == null) {
            return out;
        }
        put(out, AFTER_FINISHED, "afterFinished", policies.workloads().afterFinished(), file);
        put(out, AFTER_DEACTIVATED, "afterDeactivatedByKueue", policies.workloads().afterDeactivatedByKueue(), file);
        return out;
    }

    static List<String> notices(KueueConfig.ObjectRetentionPolicies policies, String file) {
        List<String> notices = new ArrayList<>();
        Map<String, String> properties = properties(policies, file);
        if (properties.isEmpty()) {
            notices.add(FIELD + ": read; no workloads policy set, so Workloads are kept (Kueue's default)");
        } else {
            notices.add(FIELD + ".workloads: applied as " + String.join(", ", properties.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).toList()));
        }
        return notices;
    }

    private static void put(Map<String, String> out, String property, String field, String value, String file) {
        if (value == null || value.isBlank()) {
            return;
        }
        out.put(property, goDuration(value.trim(), FIELD + ".workloads." + field, file).toString());
    }

    /** A Go duration ({@code time.ParseDuration}); not one, or a negative one, names the field. */
    static Duration goDuration(String text, String field, String file) {
        Duration d = GoDuration.parse(text);
        if (d == null) {
            throw new KueueConfigException(file + ": " + field + ": \"" + text + "\" is not a duration (write it as Kueue"
                    + " does, e.g. \"10m\", \"1h30m\", \"0s\")");
        }
        if (d.isNegative()) {
            throw new KueueConfigException(file + ": " + field + ": \"" + text + "\" is negative; Kueue refuses it too"
                    + " (0s deletes at once, leave the field out to keep Workloads)");
        }
        return d;
    }
}
