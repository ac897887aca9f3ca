package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate --serve} on the seed tutorial: the controller's dashboard JSON over the simulated run, live (the
 * 3slice JobSet admitted while 1slice and 2slice wait for quota), then the end state, which stays served until the
 * command is stopped.
 */
class SimulateServeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern URL = Pattern.compile("the dashboard is at (http://127\\.0\\.0\\.1:[0-9]+/dashboard/)");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void servesTheTutorialLiveThenItsEndUntilStopped() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AtomicInteger exit = new AtomicInteger(-1);
        // 10 virtual seconds per second: 3slice runs alone for 6 s of wall time, then 1slice and 2slice together
        Thread run = new Thread(() -> exit.set(SimulateCommand.run(
                new String[] {"--serve", "0", "--speed", "10", "examples/gke-multislice"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))),
                "simulate-serve");
        run.start();
        try {
            String base = await(() -> {
                Matcher m = URL.matcher(err.toString(StandardCharsets.UTF_8));
                return m.find() ? m.group(1) : null;
            }, () -> "the dashboard's address on stderr: " + err);

            assertThat(get(base).statusCode()).isEqualTo(200);
            assertThat(get(base).body()).contains("dashboard.js");
            assertThat(get(base).headers().firstValue("Content-Security-Policy")).hasValue(
                    "default-src 'self'; frame-ancestors 'none'");

            // live: 3slice holds the 24 chips, the other two wait in the engine's order with Kueue's reason
            JsonNode live = awaitState(base, s -> pending(s).size() == 2);
            assertThat(live.path("view").asText()).isEqualTo("simulation");
            assertThat(live.path("viewNote").asText()).contains("simulated run").contains("10x");
            assertThat(live.path("ended").asBoolean()).isFalse();
            JsonNode cq = queue(live);
            assertThat(cq.path("admitted").asInt()).isEqualTo(1);
            assertThat(cq.path("resources").get(0).path("usage").asText()).isEqualTo("24");
            assertThat(cq.path("resources").get(0).path("nominal").asText()).isEqualTo("24");
            assertThat(pending(live).findValuesAsText("name")).anyMatch(n -> n.startsWith("jobset-multislice-1slice-"))
                    .anyMatch(n -> n.startsWith("jobset-multislice-2slice-"));
            for (JsonNode p : pending(live)) {
                assertThat(p.path("reason").asText()).isEqualTo("WaitingForQuota");
                assertThat(p.path("message").asText()).contains("insufficient unused quota");
            }
            assertThat(live.path("now").asText()).isEqualTo("1970-01-01T00:00:00Z"); // still the first instant
            JsonNode admitted = null;
            for (JsonNode e : live.path("recent")) {
                if (e.path("reason").asText().equals("Admitted")) {
                    assertThat(admitted).as("one admission so far").isNull();
                    admitted = e;
                }
            }
            assertThat(admitted).as("the admission in the recent list").isNotNull();
            assertThat(admitted.path("workload").asText()).startsWith("jobset-multislice-3slice-");

            // a workload's history, as on the controller's page
            String three = admitted.path("workload").asText();
            JsonNode history = JSON.readTree(get(base + "api/workload?namespace=default&name=" + three).body());
            assertThat(history.path("phase").asText()).isEqualTo("ADMITTED");
            assertThat(history.path("history").get(0).path("reason").asText()).isEqualTo("Admitted");
            assertThat(get(base + "api/workload?namespace=default&name=nope").statusCode()).isEqualTo(404);
            assertThat(get(base + "api/workload").statusCode()).isEqualTo(400);
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "api/state"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(405);

            // the end (120 s of virtual time): everything admitted and finished, still served
            JsonNode end = awaitState(base, s -> s.path("ended").asBoolean());
            assertThat(end.path("now").asText()).isEqualTo("1970-01-01T00:02:00Z");
            assertThat(queue(end).path("pending").asInt()).isZero();
            assertThat(end.path("recent").findValuesAsText("reason")).contains("Finished", "Admitted");
            assertThat(end.path("recent").toString()).contains("jobset-multislice-1slice-", "jobset-multislice-2slice-");
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("the run ended at 120s", "until Ctrl-C");
            assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("60s +Admitted +JobSet/default/multislice-1slice");
            assertThat(run.isAlive()).as("still serving after the run").isTrue();
            assertThat(get(base + "api/state").statusCode()).isEqualTo(200);
        } finally {
            run.interrupt();
            run.join(10_000);
        }
        assertThat(run.isAlive()).isFalse();
        assertThat(exit.get()).isZero();
    }

    @Test
    void badServeOptionsAreRefusedWithTheReason() {
        Sim speedAlone = Sim.run("--speed", "5", "examples/gke-multislice");
        assertThat(speedAlone.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(speedAlone.err()).contains("--speed only applies with --serve");
        Sim zero = Sim.run("--serve", "0", "--speed", "0", "examples/gke-multislice");
        assertThat(zero.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(zero.err()).contains("--speed must be greater than 0");
        Sim port = Sim.run("--serve=70000", "examples/gke-multislice");
        assertThat(port.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(port.err()).contains("the port must be a number from 0 to 65535");
    }

    private static JsonNode queue(JsonNode state) {
        for (JsonNode q : state.path("clusterQueues")) {
            if (q.path("name").asText().equals("cluster-queue")) {
                return q;
            }
        }
        throw new AssertionError("no cluster-queue in " + state);
    }

    private static JsonNode pending(JsonNode state) {
        return queue(state).path("pendingWorkloads");
    }

    private JsonNode awaitState(String base, Predicate<JsonNode> until) throws Exception {
        JsonNode[] last = new JsonNode[1];
        return await(() -> {
            HttpResponse<String> r = get(base + "api/state");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            last[0] = JSON.readTree(r.body());
            return until.test(last[0]) ? last[0] : null;
        }, () -> "a dashboard state; last seen: " + last[0]);
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private interface Probe<T> {
        T get() throws Exception;
    }

    private static <T> T await(Probe<T> probe, java.util.function.Supplier<String> what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            T v = probe.get();
            if (v != null) {
                return v;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("timed out waiting for " + what.get());
    }
}
