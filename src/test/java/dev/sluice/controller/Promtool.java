package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.app.ManagementEndpoint;
import java.io.File;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** {@code promtool check metrics} on a scrape; skipped where promtool is missing, except on CI (which installs it). */
final class Promtool {

    private Promtool() {
    }

    static void assertValid(String scrape) throws Exception {
        String promtool = find();
        if (promtool == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("promtool is not installed; .ci/run installs Debian's prometheus package");
            }
            assumeTrue(false, "promtool not installed (apt-get install prometheus)");
        }
        Path file = Files.createTempFile("scrape", ".txt");
        try {
            Files.writeString(file, scrape, StandardCharsets.UTF_8);
            Process process = new ProcessBuilder(promtool, "check", "metrics").redirectInput(file.toFile())
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("promtool check metrics said:%n%s", output).isZero();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** /q/metrics in the Prometheus text format 0.0.4, the format promtool checks (without Accept, OpenMetrics). */
    static String scrapeTextFormat() throws Exception {
        HttpResponse<String> response = ManagementEndpoint.send(HttpRequest.newBuilder(ManagementEndpoint.uri("/q/metrics"))
                .header("Accept", "text/plain; version=0.0.4; charset=utf-8").GET());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** The value of one series ({@code name{label="v"}}, labels as exported) in a scrape; 0 when it is absent. */
    static double sample(String scrape, String series) {
        for (String line : scrape.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (line.startsWith("#") || space < 0) {
                continue;
            }
            if (line.substring(0, space).replace(",}", "}").equals(series)) {
                return Double.parseDouble(line.substring(space + 1));
            }
        }
        return 0;
    }

    private static String find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(dir, "promtool");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        return null;
    }
}
