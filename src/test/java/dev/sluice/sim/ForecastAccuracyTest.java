package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Forecasting reads the simulation and nothing else: the same run with forecasts once a virtual second decides
 * exactly what it decides without them; and the accuracy report is printed.
 */
class ForecastAccuracyTest {

    static Scenario benchmark(double scale) throws InvalidInputException {
        ScenarioBuilder b = new ScenarioBuilder(60_000);
        KueueBenchmark.generate(KueueBenchmark.scaled(KueueBenchmark.BASELINE, scale), b);
        return b.build();
    }

    @Test
    void forecastsNeverChangeAnAdmission() throws Exception {
        SimResult plain = new Simulation(benchmark(0.02)).run();
        Scenario s = benchmark(0.02);
        ForecastAccuracy accuracy = new ForecastAccuracy(s);
        SimResult forecast = new Simulation(s).observe(accuracy).run();
        assertThat(forecast.events()).isEqualTo(plain.events());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        accuracy.report(new PrintStream(text, true, StandardCharsets.UTF_8), false);
        assertThat(text.toString(StandardCharsets.UTF_8))
                .containsPattern("from observed run times: median error \\d+\\.\\d s, p90 \\d+\\.\\d s")
                .containsPattern("from exact run times: +median error \\d+\\.\\d s, p90 \\d+\\.\\d s.*; [1-9]\\d* forecast");
    }

    @Test
    void theCommandPrintsTheAccuracyAsJsonToo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = SimulateCommand.run(new String[] {"--generate", "kueue-baseline", "--scale", "0.02",
                "--forecast-accuracy", "--output", "json"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        String last = out.toString(StandardCharsets.UTF_8).strip().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(last).startsWith("{\"event\":\"ForecastAccuracy\"").contains("\"observedRunTimes\":{\"medianErrorSeconds\":");
    }
}
