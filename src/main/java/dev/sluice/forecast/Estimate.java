package dev.sluice.forecast;

/** How long a workload is expected to run once admitted; durationMillis null when unknown. */
public record Estimate(Long durationMillis, Basis basis) {
    public static final Estimate UNKNOWN = new Estimate(null, Basis.unknown);

    public Estimate {
        if (durationMillis == null) {
            basis = Basis.unknown;
        }
    }

    boolean known() {
        return durationMillis != null;
    }
}
