package dev.sluice.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus histograms in seconds through Micrometer Timers. Not DistributionSummary: its histogram rounds each
 * value up to a whole number, so 0.01 s would land in the 1 s bucket; a Timer counts nanoseconds exactly and is
 * exposed in seconds (a name ending in {@code _seconds} is kept as is).
 */
final class Histograms {

    private Histograms() {
    }

    static Timer.Builder builder(Metric metric, double[] bucketsSeconds) {
        Duration[] slos = Arrays.stream(bucketsSeconds).mapToObj(Histograms::duration).toArray(Duration[]::new);
        return Timer.builder(metric.name()).description(metric.help()).serviceLevelObjectives(slos);
    }

    static Timer register(MeterRegistry registry, Metric metric, double[] bucketsSeconds) {
        return builder(metric, bucketsSeconds).register(registry);
    }

    /** Records seconds; negative or NaN (clock differences, events out of order) count as zero. */
    static void record(Timer timer, double seconds) {
        double s = Double.isNaN(seconds) ? 0 : Math.max(0, seconds);
        timer.record(Math.round(s * 1e9), TimeUnit.NANOSECONDS);
    }

    private static Duration duration(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
