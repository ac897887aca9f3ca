package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.app.ManagementEndpoint;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Metrics and dashboard behind a bearer token, over HTTPS only: the test API server answers the token checks
 * ({@link ScraperTokens}); health probes need no token; a token sent in clear is never taken.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(ScraperTokens.AuthOn.class)
class ManagementAuthTest {

    @KubernetesTestServer
    KubernetesServer mock;

    @BeforeEach
    void authorizer() {
        ScraperTokens.answerOn(mock);
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(ManagementEndpoint.uri(path)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return ManagementEndpoint.send(b);
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

        HttpResponse<String> alice = get("/q/metrics", ScraperTokens.INTRUDER);
        assertThat(alice.statusCode()).isEqualTo(403);
        assertThat(alice.body()).contains("user \"alice\" may not get /q/metrics");

        HttpResponse<String> scrape = get("/q/metrics", ScraperTokens.SCRAPER);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("# TYPE ");
        assertThat(get("/dashboard/api/state", ScraperTokens.SCRAPER).statusCode()).isIn(200, 503);
        assertThat(get("/dashboard/api/state", null).statusCode()).isEqualTo(401);

        // the reviews asked what the request does: get on its path, for the token's user
        synchronized (ScraperTokens.REVIEWS) {
            assertThat(ScraperTokens.REVIEWS).anySatisfy(r -> {
                assertThat(r.get("spec").get("user").asText()).isEqualTo(ScraperTokens.PROMETHEUS);
                assertThat(r.get("spec").get("nonResourceAttributes").get("path").asText()).isEqualTo("/q/metrics");
                assertThat(r.get("spec").get("nonResourceAttributes").get("verb").asText()).isEqualTo("get");
            });
        }
    }

    @Test
    void aTokenSentInClearIsNeverTaken() throws Exception {
        String token = "sent-in-clear";
        String answer = ManagementEndpoint.plainHttp("/q/metrics", token);
        assertThat(answer).as("the management port answered plain HTTP").doesNotStartWith("HTTP/");
        // the token reached no handler: nothing asked the API server about it
        assertThat(get("/q/metrics", ScraperTokens.SCRAPER).statusCode()).isEqualTo(200);
        synchronized (ScraperTokens.TOKENS) {
            assertThat(ScraperTokens.TOKENS).contains(ScraperTokens.SCRAPER).doesNotContain(token);
        }
    }
}
