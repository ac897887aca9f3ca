package dev.sluice.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.app.ManagementEndpoint;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The dashboard's HTTP side: files from the jar with a strict CSP, read-only, and clear answers to bad requests. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class DashboardApiTest {

    private static HttpResponse<String> send(String method, String path) throws Exception {
        return ManagementEndpoint.send(HttpRequest.newBuilder(ManagementEndpoint.uri(path))
                .method(method, HttpRequest.BodyPublishers.noBody()));
    }

    @Test
    void pageAndScriptComeFromTheJarAndLoadNothingElse() throws Exception {
        HttpResponse<String> page = send("GET", "/dashboard/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'self'; frame-ancestors 'none'");
        assertThat(page.body()).contains("<script src=\"dashboard.js\"").doesNotContain("http://", "https://");
        assertThat(send("GET", "/dashboard/dashboard.js").body()).contains("api/state").doesNotContain("http");
        assertThat(send("GET", "/dashboard/dashboard.css").statusCode()).isEqualTo(200);
        HttpResponse<String> bare = send("GET", "/dashboard"); // the page's links are relative to the slash
        assertThat(bare.statusCode()).isEqualTo(301);
        assertThat(bare.headers().firstValue("Location")).hasValue("/dashboard/");
    }

    @Test
    void stateIsJsonAndNothingCanBeWritten() throws Exception {
        HttpResponse<String> state = send("GET", "/dashboard/api/state");
        assertThat(state.statusCode()).isEqualTo(200);
        JsonNode s = new ObjectMapper().readTree(state.body());
        assertThat(s.get("clusterQueues").isArray()).isTrue();
        assertThat(s.get("cohorts").isArray()).isTrue();
        assertThat(s.get("recent").isArray()).isTrue();
        assertThat(s.get("refreshMillis").asLong()).isPositive();
        for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
            HttpResponse<String> w = send(method, "/dashboard/api/state");
            assertThat(w.statusCode()).as(method).isEqualTo(405);
            assertThat(w.body()).contains("read-only");
        }
    }

    @Test
    void aWorkloadNeedsBothParametersAndAnUnknownOneIs404() throws Exception {
        HttpResponse<String> missing = send("GET", "/dashboard/api/workload?namespace=default");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).contains("namespace and name are needed");
        HttpResponse<String> unknown = send("GET", "/dashboard/api/workload?namespace=nowhere&name=nothing");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("Workload nowhere/nothing is neither queued nor in the recent history");
    }
}
