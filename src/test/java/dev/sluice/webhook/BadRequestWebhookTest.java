package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What is not a usable AdmissionReview gets 400 with a reason; too large a body 413; plain HTTP nothing at all. */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class BadRequestWebhookTest {

    @ParameterizedTest
    @ValueSource(strings = {"/mutate", "/mutate-default-queue", "/validate"})
    void aBodyThatIsNotJsonIs400(String path) throws Exception {
        HttpResponse<String> answer = Webhook.post(path, "apiVersion: admission.k8s.io/v1".getBytes(StandardCharsets.UTF_8));
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).startsWith("the body is not JSON");
    }

    @Test
    void aReviewWithoutRequestIs400() throws Exception {
        HttpResponse<String> answer = Webhook.post("/mutate",
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).isEqualTo("the AdmissionReview has no request");
    }

    @Test
    void aReviewWithoutObjectIs400() throws Exception {
        ObjectNode review = Reviews.create(Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0));
        ((ObjectNode) review.get("request")).remove("object");
        HttpResponse<String> answer = Webhook.post("/validate", Webhook.JSON.writeValueAsBytes(review));
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).isEqualTo("request.object is missing or not an object; a CREATE review must carry the object");
    }

    @Test
    void anOlderReviewVersionIs400() throws Exception {
        ObjectNode review = Reviews.create(Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0));
        review.put("apiVersion", "admission.k8s.io/v1beta1");
        HttpResponse<String> answer = Webhook.post("/mutate", Webhook.JSON.writeValueAsBytes(review));
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).contains("admission.k8s.io/v1beta1 is not supported");
    }

    @Test
    void anObjectOfTheWrongShapeIs400() throws Exception {
        ObjectNode job = Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        ((ObjectNode) job.get("metadata")).put("labels", "kueue.x-k8s.io/queue-name=q");
        HttpResponse<String> answer = Webhook.post("/mutate", Webhook.JSON.writeValueAsBytes(Reviews.create(job)));
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).startsWith("request.object is not a valid Kubernetes object");
    }

    @Test
    void anUnsupportedKindIsAllowedUntouched() throws Exception {
        ObjectNode pod = Reviews.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, labels: {kueue.x-k8s.io/queue-name: q}}
                spec: {containers: [{name: c, image: busybox}]}
                """);
        for (String path : new String[] {"/mutate", "/validate"}) {
            JsonNode response = Webhook.review(path, Reviews.create(pod));
            assertThat(response.path("allowed").asBoolean()).isTrue();
            assertThat(response.has("patch")).isFalse();
        }
    }

    @Test
    void anOversizedObjectIs413WithoutBeingRead() throws Exception {
        ObjectNode job = Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        char[] filler = new char[4 * 1024 * 1024];
        Arrays.fill(filler, 'x');
        ((ObjectNode) job.get("metadata")).putObject("annotations").put("big", new String(filler));
        // The server answers from the Content-Length, before the body: the client asks first (Expect: 100-continue,
        // HTTP/1.1), else it is still sending when the connection closes and never reads the answer.
        HttpResponse<String> answer = Webhook.post("/mutate", Webhook.JSON.writeValueAsBytes(Reviews.create(job)),
                HttpClient.Version.HTTP_1_1);
        assertThat(answer.statusCode()).isEqualTo(413);
        // the server is still there
        JsonNode response = Webhook.review("/mutate", Reviews.create(Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0)));
        assertThat(response.path("allowed").asBoolean()).isTrue();
    }

    @Test
    void plainHttpIsRefused() {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + Webhook.sslPort() + "/mutate"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void anUntrustedClientCannotTalkToIt() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + Webhook.sslPort() + "/mutate"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        // the default trust store does not know the self-signed test certificate: the channel really is TLS
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class).hasMessageContaining("PKIX");
    }
}
