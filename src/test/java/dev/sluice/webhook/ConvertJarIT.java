package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.certs.PemCertificateFiles;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged fast-jar (runs after package) in sluice.mode=webhook with no cluster: its /convert answers
 * ConversionReviews over HTTPS as the API server needs, both ways.
 */
class ConvertJarIT {

    static Process jar;
    static int port;
    static HttpClient https;
    static Path log;

    @BeforeAll
    static void startJar() throws Exception {
        Path dir = Files.createTempDirectory("sluice-convert-it");
        PemCertificateFiles tls = TestTls.generate(dir, "tls");
        Files.copy(tls.certFile(), dir.resolve("tls.crt"));
        Files.copy(tls.keyFile(), dir.resolve("tls.key"));
        port = freePort();
        log = dir.resolve("jar.log");
        jar = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dsluice.mode=webhook", "-Dsluice.tls.dir=" + dir, "-Dquarkus.http.ssl-port=" + port,
                "-Dquarkus.management.port=" + freePort(), "-Dquarkus.kubernetes-client.api-server-url=https://127.0.0.1:1",
                "-jar", Path.of("target", "quarkus-app", "quarkus-run.jar").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        https = Webhook.client(dir.resolve("tls.crt"));
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            try {
                post("{}");
                return;
            } catch (IOException notYet) {
                if (!jar.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("the jar did not serve HTTPS on " + port + ": " + Files.readString(log));
                }
                Thread.sleep(500);
            }
        }
    }

    @AfterAll
    static void stopJar() throws Exception {
        if (jar != null) {
            jar.destroy();
            jar.waitFor();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static HttpResponse<String> post(String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/convert"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return https.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void convertsBothWaysKeepingUidAndOrder() throws Exception {
        JsonNode objects = ConversionWebhookTest.YAML.readTree(ConversionWebhookTest.V1_OBJECTS);
        HttpResponse<String> up = post(Webhook.JSON.writeValueAsString(
                ConversionWebhookTest.review("jar-up", "kueue.x-k8s.io/v1beta2", objects)));
        assertThat(up.statusCode()).isEqualTo(200);
        JsonNode upResponse = Webhook.JSON.readTree(up.body()).path("response");
        assertThat(upResponse.path("uid").asText()).isEqualTo("jar-up");
        assertThat(upResponse.path("result").path("status").asText()).isEqualTo("Success");
        ArrayNode converted = (ArrayNode) upResponse.path("convertedObjects");
        assertThat(converted).extracting(o -> o.path("kind").asText()).containsExactly("ClusterQueue", "LocalQueue",
                "Workload", "Cohort");
        assertThat(converted.at("/0/spec/cohortName").asText()).isEqualTo("all");

        HttpResponse<String> down = post(Webhook.JSON.writeValueAsString(
                ConversionWebhookTest.review("jar-down", "kueue.x-k8s.io/v1beta1", converted)));
        JsonNode downResponse = Webhook.JSON.readTree(down.body()).path("response");
        assertThat(downResponse.path("uid").asText()).isEqualTo("jar-down");
        assertThat(downResponse.path("convertedObjects")).isEqualTo(objects);
    }

    @Test
    void malformedReviewsAreFailuresNot500() throws Exception {
        for (String body : List.of("nonsense", "{}", "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\","
                + "\"request\":{\"uid\":\"u\",\"desiredAPIVersion\":\"kueue.x-k8s.io/v9\",\"objects\":[]}}")) {
            HttpResponse<String> answer = post(body);
            assertThat(answer.statusCode()).as(body).isEqualTo(200);
            ObjectNode response = (ObjectNode) Webhook.JSON.readTree(answer.body()).path("response");
            assertThat(response.path("result").path("status").asText()).as(body).isEqualTo("Failure");
        }
    }
}
