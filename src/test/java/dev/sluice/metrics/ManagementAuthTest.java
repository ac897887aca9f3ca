package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.apiserver.ApiServerRules;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Metrics and dashboard behind a bearer token: the test API server answers TokenReviews (token "scraper" is
 * system:serviceaccount:monitoring:prometheus, "intruder" is alice, anything else is invalid) and SubjectAccessReviews
 * (only prometheus may get /q/metrics and /dashboard/...). Health probes need no token.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(ManagementAuthTest.On.class)
class ManagementAuthTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";
    static final List<JsonNode> reviews = new ArrayList<>();
    static boolean ready;

    public static class On implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.management.auth.enabled", "true");
        }
    }

    @KubernetesTestServer
    KubernetesServer mock;

    @BeforeEach
    void authorizer() {
        if (ready) {
            return;
        }
        ready = true;
        mock.expect().post().withPath("/apis/authentication.k8s.io/v1/tokenreviews").andReply(201, req -> {
            try {
                ObjectNode tr = (ObjectNode) JSON.readTree(req.getBody().readUtf8());
                String token = tr.get("spec").get("token").asText();
                ObjectNode status = tr.putObject("status");
                String user = switch (token) {
                    case "scraper" -> PROMETHEUS;
                    case "intruder" -> "alice";
                    default -> null;
                };
                status.put("authenticated", user != null);
                if (user != null) {
                    status.putObject("user").put("username", user).putArray("groups").add("system:authenticated");
                } else {
                    status.put("error", "token not recognised");
                }
                return tr;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).always();
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews").andReply(201, req -> {
            try {
                ObjectNode sar = (ObjectNode) JSON.readTree(req.getBody().readUtf8());
                synchronized (reviews) {
                    reviews.add(sar);
                }
                boolean allowed = sar.get("spec").get("user").asText().equals(PROMETHEUS);
                sar.putObject("status").put("allowed", allowed);
                return sar;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).always();
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthIsOpenMetricsNeedATokenWithTheRight() throws Exception {
        assertThat(get("/q/health/live", null).statusCode()).isEqualTo(200);
        assertThat(get("/q/health/ready", null).statusCode()).isIn(200, 503); // open either way: no 401

        HttpResponse<String> none = get("/q/metrics", null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(none.body()).contains("a bearer token is needed");
        assertThat(get("/q/metrics", "forged").statusCode()).isEqualTo(401);

        HttpResponse<String> alice = get("/q/metrics", "intruder");
        assertThat(alice.statusCode()).isEqualTo(403);
        assertThat(alice.body()).contains("user \"alice\" may not get /q/metrics");

        HttpResponse<String> scrape = get("/q/metrics", "scraper");
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("# TYPE ");
        assertThat(get("/dashboard/api/state", "scraper").statusCode()).isIn(200, 503);
        assertThat(get("/dashboard/api/state", null).statusCode()).isEqualTo(401);

        // the reviews asked what the request does: get on its path, for the token's user
        synchronized (reviews) {
            assertThat(reviews).anySatisfy(r -> {
                assertThat(r.get("spec").get("user").asText()).isEqualTo(PROMETHEUS);
                assertThat(r.get("spec").get("nonResourceAttributes").get("path").asText()).isEqualTo("/q/metrics");
                assertThat(r.get("spec").get("nonResourceAttributes").get("verb").asText()).isEqualTo("get");
            });
        }
    }
}
