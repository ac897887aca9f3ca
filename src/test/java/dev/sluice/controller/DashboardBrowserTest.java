package dev.sluice.controller;

import static dev.sluice.dashboard.HeadlessChromium.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.dashboard.HeadlessChromium;
import dev.sluice.dashboard.HeadlessChromium.Wait;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard in a real browser: Debian's headless Chromium, driven through the system chromedriver (nothing is
 * downloaded), opens the page against the test API server, sees the seed's ClusterQueue and its quota, sees
 * multislice-3slice admitted live (the page is open before the JobSet is created), then 1slice and 2slice waiting in
 * order with their reason, and a workload's history. A screenshot is kept as target/dashboard.png.
 *
 * <p>Without Chromium the test fails in CI (CI=true: .ci/run installs chromium and chromium-driver) and is skipped
 * with a message elsewhere.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class DashboardBrowserTest {
    static final String NS = "dashboard";

    @Inject
    KubernetesClient client;

    @Test
    void showsTheTutorialLive() throws Exception {
        HeadlessChromium.require();
        Cluster cluster = new Cluster(client);
        DashboardSeed.queues(cluster, client, NS, "dash");
        List<HasMetadata> jobSets = cluster.load("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml");

        ChromeDriver browser = HeadlessChromium.start();
        try {
            browser.get(ManagementEndpoint.uri("/dashboard/").toString());
            Wait wait = new Wait(browser);

            // the seed's queue with its quota, nothing used yet (the page redraws as it polls: every look reads
            // what it needs at once, and looks again if the element was replaced meanwhile)
            String tpu = "#cq-dash-cq .bar-row[data-flavor='dash-vlp-24'][data-resource='google.com/tpu']";
            wait.until(b -> text(b, tpu).contains("0 of 24"));
            assertThat(wait.<String>until(b -> text(b, "#status"))).startsWith("as of ");

            // 3slice admitted while the page is open: the page shows it without a reload
            cluster.create(NS, List.of(jobSets.get(2)));
            Workload three = cluster.awaitWorkload(cluster.jobSet(NS, "multislice-3slice"), Cluster::admitted);
            String admitted = "#recent tr.recent[data-reason='Admitted'][data-workload='" + NS + "/"
                    + three.getMetadata().getName() + "']";
            assertThat(wait.<String>until(b -> text(b, admitted))).contains("Admitted by ClusterQueue dash-cq");
            wait.until(b -> text(b, tpu).contains("24 of 24"));

            // 1slice and 2slice wait, in the engine's order, with the reason the Workload carries
            cluster.create(NS, List.of(jobSets.get(0), jobSets.get(1)));
            Workload one = cluster.awaitWorkload(cluster.jobSet(NS, "multislice-1slice"),
                    w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
            Workload two = cluster.awaitWorkload(cluster.jobSet(NS, "multislice-2slice"),
                    w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
            List<String> pending = wait.until(b -> {
                List<String> rows = b.findElements(By.cssSelector("#cq-dash-cq tr.pending")).stream()
                        .map(r -> r.getAttribute("data-workload") + " " + r.getText()).toList();
                return rows.size() == 2 && rows.stream().allMatch(r -> r.contains("WaitingForQuota")) ? rows : null;
            });
            assertThat(pending).extracting(r -> r.substring(0, r.indexOf(' '))).containsExactlyInAnyOrder(
                    NS + "/" + one.getMetadata().getName(), NS + "/" + two.getMetadata().getName());
            assertThat(pending.get(0)).contains("insufficient unused quota for google.com/tpu");
            assertThat(wait.<String>until(b -> text(b, "#cq-dash-cq > .counts"))).contains("1 admitted, 2 pending");

            // a workload's history: click it
            wait.until(b -> {
                b.findElement(By.cssSelector(admitted + " a.workload-link")).click();
                return true;
            });
            List<String> history = wait.until(b -> {
                List<String> reasons = b.findElements(By.cssSelector("#history tr.history")).stream()
                        .map(r -> r.getAttribute("data-reason")).toList();
                if (reasons.size() >= 2) {
                    return reasons;
                }
                if (b.findElements(By.cssSelector("#workload:not([hidden])")).isEmpty()) {
                    // a redraw of the table between finding the link and the click's landing took the click
                    // (seen on a loaded machine): nothing was selected, so click again
                    b.findElement(By.cssSelector(admitted + " a.workload-link")).click();
                }
                return null;
            });
            assertThat(history).contains("QuotaReserved", "Admitted");
            assertThat(wait.<String>until(b -> text(b, "#workload-now"))).startsWith("ADMITTED in ClusterQueue dash-cq");

            Path shot = Path.of("target", "dashboard.png");
            Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
            assertThat(Files.size(shot)).isPositive();
        } finally {
            browser.quit();
        }
    }
}
