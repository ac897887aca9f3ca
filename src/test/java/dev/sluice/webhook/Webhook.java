package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;

/** Calls the webhooks of the application under test over HTTPS, trusting only the test certificate. */
final class Webhook {
    static final ObjectMapper JSON = new ObjectMapper();

    private Webhook() {
    }

    static int sslPort() {
        return ConfigProvider.getConfig().getValue("quarkus.http.test-ssl-port", Integer.class);
    }

    static HttpClient client(Path trustedCert) {
        return TestTls.client(trustedCert);
    }

    /** POSTs a raw body to a webhook path over HTTPS. */
    static HttpResponse<String> post(String path, byte[] body) throws Exception {
        return post(path, body, HttpClient.Version.HTTP_2);
    }

    static HttpResponse<String> post(String path, byte[] body, HttpClient.Version version) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + sslPort() + path))
                .version(version).expectContinue(version == HttpClient.Version.HTTP_1_1)
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return client(TestTls.files().certFile()).send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs a review and returns the answer's {@code response}, checking the status and the echoed uid. */
    static JsonNode review(String path, JsonNode review) throws Exception {
        HttpResponse<String> answer = post(path, JSON.writeValueAsBytes(review));
        if (answer.statusCode() != 200) {
            throw new AssertionError("HTTP " + answer.statusCode() + ": " + answer.body());
        }
        JsonNode body = JSON.readTree(answer.body());
        if (!"admission.k8s.io/v1".equals(body.path("apiVersion").asText())
                || !"AdmissionReview".equals(body.path("kind").asText())) {
            throw new AssertionError("not an AdmissionReview: " + answer.body());
        }
        JsonNode response = body.get("response");
        String uid = review.path("request").path("uid").asText();
        if (!uid.equals(response.path("uid").asText())) {
            throw new AssertionError("answer uid " + response.path("uid") + " is not the request's " + uid);
        }
        return response;
    }
}
