package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.jobs.WellKnown;
import dev.sluice.metrics.ScraperTokens;
import dev.sluice.webhook.TestTls;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A real Prometheus (Debian's prometheus server) scrapes the running controller every second while a scenario plays,
 * as the chart has it scraped: over HTTPS, verifying the certificate against its CA and name, with a bearer token
 * the controller checks ({@link ScraperTokens}; docs/metrics.md's scrape config):
 * a low-priority Job runs with its pods ready, a high-priority one preempts it, finishes, and the low one runs and is
 * ready again (one interruption, one recovery). Then every PromQL expression of the shipped Grafana dashboard and the
 * tutorial's MTTR/MTBI queries (docs/metrics.md) run against it without error and return the scenario's series.
 * Without /usr/bin/prometheus the test fails in CI (CI=true; .ci/run installs it) and is skipped elsewhere.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(ScraperTokens.AuthOn.class)
class PrometheusScrapeTest {
    static final String NS = "prom";
    static final String CQ = "prom-cq";
    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

    @Inject
    KubernetesClient client;
    @KubernetesTestServer
    KubernetesServer mock;
    /** Prometheus's config and storage, fresh for the run (QuarkusTest instances get no @TempDir). */
    private Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private int port;

    @Test
    void dashboardAndTutorialQueriesAnswerFromARealScrape() throws Exception {
        requirePrometheus();
        ScraperTokens.answerOn(mock);
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("prom-flavor", "{}")).create();
        client.resource(Queues.yaml(dev.sluice.api.v1beta2.ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  namespaceSelector: {}
                  preemption: {withinClusterQueue: LowerPriority}
                  resourceGroups:
                  - coveredResources: [cpu, memory]
                    flavors:
                    - name: prom-flavor
                      resources:
                      - {name: cpu, nominalQuota: "1"}
                      - {name: memory, nominalQuota: 10Gi}
                """.formatted(CQ))).create();
        client.resource(Queues.localQueue(NS, "jobs", CQ)).create();
        client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                .withName("prom-high").endMetadata().withValue(1000).build()).create();

        Process prometheus = startPrometheus();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(values("up{job=\"sluice\"}")).as("the scrape target: %s", target()).contains(1.0));
            synchronized (ScraperTokens.TOKENS) {
                assertThat(ScraperTokens.TOKENS).as("Prometheus sent its token").contains(ScraperTokens.SCRAPER);
            }

            // low runs and its pod is ready; high preempts it; high finishes; low runs again and is ready again
            Job low = job("low", null);
            cluster.awaitWorkload(low, Cluster::admitted);
            ready("low", 1);
            cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "PodsReady"));
            Job high = job("high", "prom-high");
            await().atMost(Cluster.TIMEOUT).until(() -> Boolean.TRUE.equals(jobNow("low").getSpec().getSuspend()));
            status("low", 0, 0); // the Job controller removes the preempted pod
            cluster.awaitWorkload(high, Cluster::admitted);
            new FakeJobController(client).finishJob(NS, "high", true);
            cluster.awaitWorkload(low, Cluster::admitted);
            ready("low", 1);
            cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "PodsReady"));

            // Prometheus has seen the recovery, and a scrape or two after it
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> values("sluice_workload_time_to_recover_seconds_count").stream().anyMatch(v -> v >= 1));
            Thread.sleep(3000);

            List<String> dashboard = dashboardExpressions();
            assertThat(dashboard).hasSizeGreaterThanOrEqualTo(8);
            for (String expr : dashboard) {
                JsonNode result = query(expr);
                assertThat(result).as("Grafana panel %s returned no series", expr).isNotEmpty();
                if (!expr.contains("admission_attempts_total")) {
                    assertThat(result.toString()).as("Grafana panel %s", expr).contains(CQ);
                }
            }
            List<String> tutorial = tutorialExpressions();
            assertThat(tutorial).hasSize(3); // MTTR, MTBI, p90 time to recover
            for (String expr : tutorial) {
                List<Double> v = valuesOf(query(expr));
                assertThat(v).as("tutorial query %s", expr).singleElement()
                        .satisfies(x -> assertThat(x).isPositive().isLessThan(3600.0));
            }
            // the per-workload examples of the same page parse and run (they name the tutorial's namespace)
            for (String expr : promqlBlocks().get(1)) {
                query(expr);
            }
            assertThat(valuesOf(query("sluice_workload_uptime_seconds{namespace=\"" + NS + "\"}"))).singleElement()
                    .satisfies(x -> assertThat(x).isPositive());
            // the LocalQueue gauges the controller feeds: low is admitted again, nothing waits
            String lq = "{namespace=\"" + NS + "\",name=\"jobs\"}";
            assertThat(valuesOf(query("kueue_local_queue_admitted_active_workloads" + lq))).containsExactly(1.0);
            // low was admitted twice, high once
            assertThat(valuesOf(query("kueue_local_queue_admitted_workloads_total" + lq))).containsExactly(3.0);
            assertThat(valuesOf(query("sum(kueue_local_queue_pending_workloads" + lq + ")"))).containsExactly(0.0);
            assertThat(valuesOf(query("kueue_local_queue_status{namespace=\"" + NS + "\",name=\"jobs\",active=\"True\"}")))
                    .containsExactly(1.0);
            assertThat(valuesOf(query("kueue_local_queue_resource_usage{namespace=\"" + NS
                    + "\",name=\"jobs\",resource=\"cpu\"}"))).containsExactly(1.0);
        } finally {
            prometheus.destroy();
            if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
    }

    // ---- Prometheus ----

    private Process startPrometheus() throws Exception {
        tmp = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "prometheus-");
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int management = ManagementEndpoint.port();
        Path config = tmp.resolve("prometheus.yml");
        Path token = Files.writeString(tmp.resolve("token"), ScraperTokens.SCRAPER);
        // as docs/metrics.md's scrape config: the CA of sluice.tls.dir, the name the certificate carries, a token file
        Files.writeString(config, """
                global: {scrape_interval: 1s, evaluation_interval: 1s}
                scrape_configs:
                - job_name: sluice
                  metrics_path: /q/metrics
                  scheme: https
                  tls_config: {ca_file: %s, server_name: localhost}
                  authorization: {credentials_file: %s}
                  static_configs: [{targets: ["127.0.0.1:%d"]}]
                """.formatted(TestTls.files().certFile(), token, management));
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path log = Path.of("target", "prometheus-scrape-test.log");
        return new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config, "--storage.tsdb.path=" + data,
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** The result array of an instant query; fails on any error Prometheus reports (a bad expression). */
    private JsonNode query(String expr) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = json.readTree(r.body());
        assertThat(body.path("status").asText()).as("query %s answered %s", expr, r.body()).isEqualTo("success");
        return body.path("data").path("result");
    }

    /** Prometheus's view of the scrape target (its health and last error), for a failure message. */
    private String target() {
        try {
            return json.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/v1/targets")).GET().build(), HttpResponse.BodyHandlers.ofString()).body())
                    .path("data").path("activeTargets").toString();
        } catch (Exception e) {
            return "unknown (" + e + ")";
        }
    }

    private List<Double> values(String expr) {
        try {
            return valuesOf(query(expr));
        } catch (Exception | AssertionError e) {
            return List.of(); // not up yet
        }
    }

    private static List<Double> valuesOf(JsonNode result) {
        List<Double> out = new ArrayList<>();
        result.forEach(series -> out.add(Double.parseDouble(series.path("value").get(1).asText())));
        return out;
    }

    // ---- the shipped queries ----

    /** Every "expr" of the Grafana dashboard the chart ships. */
    private List<String> dashboardExpressions() throws Exception {
        List<String> out = new ArrayList<>();
        json.readTree(Path.of("helm/sluice/dashboards/sluice-kueue.json").toFile()).findValues("expr")
                .forEach(e -> out.add(e.asText()));
        return out;
    }

    /** The first block of docs/metrics.md's "PromQL": the tutorial's MTTR, MTBI and p90 time to recover. */
    private static List<String> tutorialExpressions() throws Exception {
        return promqlBlocks().get(0);
    }

    /** The promql blocks of docs/metrics.md's section "PromQL", each as its expressions (comments separate them). */
    private static List<List<String>> promqlBlocks() throws Exception {
        String doc = Files.readString(Path.of("docs", "metrics.md"));
        doc = doc.substring(doc.indexOf("\n## PromQL\n"));
        Matcher m = Pattern.compile("```promql\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        List<List<String>> blocks = new ArrayList<>();
        while (m.find()) {
            List<String> exprs = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            for (String line : m.group(1).split("\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    if (!current.isEmpty()) {
                        exprs.add(current.toString().trim());
                        current.setLength(0);
                    }
                } else {
                    current.append(line.trim()).append(' ');
                }
            }
            if (!current.isEmpty()) {
                exprs.add(current.toString().trim());
            }
            blocks.add(exprs);
        }
        return blocks;
    }

    // ---- the scenario's jobs (this plays the Job controller) ----

    private Job job(String name, String priorityClass) {
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        job.getSpec().getTemplate().getSpec().setPriorityClassName(priorityClass);
        return client.batch().v1().jobs().inNamespace(NS).resource(job).create();
    }

    private Job jobNow(String name) {
        return client.batch().v1().jobs().inNamespace(NS).withName(name).get();
    }

    /** {@code ready} of the running Job's one pod are ready (once Sluice started it). */
    private void ready(String name, int ready) {
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(jobNow(name).getSpec().getSuspend()));
        status(name, 1, ready);
    }

    private void status(String name, int active, int ready) {
        client.batch().v1().jobs().inNamespace(NS).withName(name).editStatus(j -> {
            j.setStatus(new JobStatusBuilder().withActive(active).withReady(ready).build());
            return j;
        });
    }

    private static void requirePrometheus() {
        if (new File(PROMETHEUS.toString()).canExecute()) {
            return;
        }
        String problem = PROMETHEUS + " is not installed (apt-get install prometheus; .ci/run installs it)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(problem);
        }
        System.err.println("SKIPPED: " + problem);
        Assumptions.abort(problem);
    }
}
