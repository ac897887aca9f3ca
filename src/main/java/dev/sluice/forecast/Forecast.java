package dev.sluice.forecast;

/**
 * When a waiting workload is expected to be admitted: startAtMillis (null: cannot be said), and the least sure
 * estimate the forecast rests on. Position is its place in its ClusterQueue's order (from 0).
 */
public record Forecast(Long startAtMillis, Basis basis, String clusterQueue, int position) {

    /** E.g. "expected to start in about 12 min (from observed run times), 3rd in ClusterQueue team-a". */
    public String describe(long nowMillis) {
        String where = ordinal(position + 1) + " in ClusterQueue " + clusterQueue;
        if (startAtMillis == null) {
            return "start time unknown (no expected run time for the workloads ahead), " + where;
        }
        long in = Math.max(0, startAtMillis - nowMillis);
        String when = in < 60_000 ? "expected to start within a minute" : "expected to start in about " + human(in);
        String at = java.time.format.DateTimeFormatter.ofPattern("HH:mm 'UTC'")
                .format(java.time.Instant.ofEpochMilli(startAtMillis).atZone(java.time.ZoneOffset.UTC));
        return when + " (" + at + ", from " + basis.words() + "), " + where;
    }

    /** Coarse on purpose: the text (and so the annotation) changes rarely. */
    static String human(long millis) {
        long min = Math.round(millis / 60_000.0);
        if (min < 60) {
            return min + " min";
        }
        if (min < 120) {
            return "1 h " + (min - 60) / 10 * 10 + " min";
        }
        long h = Math.round(millis / 3_600_000.0);
        return h < 48 ? h + " h" : Math.round(millis / 86_400_000.0) + " days";
    }

    static String ordinal(int n) {
        int mod100 = n % 100;
        String suffix = mod100 >= 11 && mod100 <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }
}
