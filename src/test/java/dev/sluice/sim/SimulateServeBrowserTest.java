package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.dashboard.HeadlessChromium;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * {@code simulate --serve} in a real browser: the seed tutorial's run on the controller's page, with the banner that
 * says it is simulated, 3slice holding all 24 chips while 1slice and 2slice wait with their reason, then the end.
 * A screenshot is kept as target/simulate-dashboard.png.
 */
class SimulateServeBrowserTest {
    private static final Pattern URL = Pattern.compile("the dashboard is at (http://127\\.0\\.0\\.1:[0-9]+/dashboard/)");

    @Test
    void showsTheSimulatedTutorialInTheBrowser() throws Exception {
        HeadlessChromium.require();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // 5 virtual seconds per second: the first minute (3slice alone) lasts 12 s on the page
        Thread run = new Thread(() -> SimulateCommand.run(
                new String[] {"--serve", "0", "--speed", "5", "examples/gke-multislice"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), "simulate-serve-browser");
        run.start();
        ChromeDriver browser = HeadlessChromium.start();
        try {
            String base = null;
            for (int i = 0; i < 600 && base == null; i++) {
                Matcher m = URL.matcher(err.toString(StandardCharsets.UTF_8));
                base = m.find() ? m.group(1) : null;
                Thread.sleep(50);
            }
            assertThat(base).as("the address on stderr: " + err).isNotNull();
            browser.get(base);
            HeadlessChromium.Wait wait = new HeadlessChromium.Wait(browser);

            assertThat(wait.<String>until(b -> HeadlessChromium.text(b, "#view"))).startsWith("A simulated run");
            String tpu = "#cq-cluster-queue .bar-row[data-resource='google.com/tpu']";
            List<String> pending = wait.until(b -> {
                List<String> rows = b.findElements(By.cssSelector("#cq-cluster-queue tr.pending")).stream()
                        .map(r -> r.getAttribute("data-workload") + " " + r.getText()).toList();
                return rows.size() == 2 && HeadlessChromium.text(b, tpu).contains("24 of 24") ? rows : null;
            });
            assertThat(pending).allMatch(r -> r.contains("WaitingForQuota"));
            assertThat(pending).anyMatch(r -> r.startsWith("default/jobset-multislice-1slice-"))
                    .anyMatch(r -> r.startsWith("default/jobset-multislice-2slice-"));
            assertThat(HeadlessChromium.text(browser, "#status")).startsWith("simulated time 00:00:");
            assertThat(wait.<String>until(b -> HeadlessChromium.text(b, "#recent tr.recent[data-reason='Admitted']")))
                    .contains("jobset-multislice-3slice-");
            Path shot = Path.of("target", "simulate-dashboard.png");
            Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
            assertThat(Files.size(shot)).isPositive();
        } finally {
            browser.quit();
            run.interrupt();
            run.join(10_000);
        }
    }
}
