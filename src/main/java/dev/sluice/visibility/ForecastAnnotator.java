package dev.sluice.visibility;

import dev.sluice.forecast.Forecast;
import dev.sluice.forecast.ForecastService;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The forecast as extra annotations on each pending item's metadata (a field every Kueue client already accepts and
 * ignores): {@code sluice.dev/expected-start} (RFC 3339, absent when unknown), {@code sluice.dev/forecast-basis} and
 * {@code sluice.dev/forecast} (the sentence kubectl describe shows), from the latest forecast run.
 */
final class ForecastAnnotator {
    static final String EXPECTED_START = "sluice.dev/expected-start";
    static final String BASIS = "sluice.dev/forecast-basis";

    private ForecastAnnotator() {
    }

    static PendingSummaries.Annotator of(ForecastService service) {
        return (key, clusterQueue) -> {
            ForecastService.Published p = service.latest();
            Forecast f = p.forecasts().get(key);
            if (f == null) {
                return Map.of();
            }
            Map<String, String> m = new LinkedHashMap<>();
            if (f.startAtMillis() != null) {
                m.put(EXPECTED_START, Instant.ofEpochMilli(f.startAtMillis()).toString());
            }
            m.put(BASIS, f.basis().name());
            m.put(ForecastService.ANNOTATION, f.describe(System.currentTimeMillis()));
            return m;
        };
    }
}
