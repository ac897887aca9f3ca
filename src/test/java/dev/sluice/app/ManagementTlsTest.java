package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.webhook.TestTls;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import org.junit.jupiter.api.Test;

/**
 * The management port (health, metrics, dashboard) speaks HTTPS only, with the certificate of {@code sluice.tls.dir}
 * that the webhooks serve: a bearer token for the metrics never crosses the network in clear.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ManagementTlsTest {

    @Test
    void healthMetricsAndDashboardAreServedOverHttpsWithTheWebhookCertificate() throws Exception {
        Certificate expected;
        try (InputStream in = Files.newInputStream(TestTls.files().certFile())) {
            expected = CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        for (String path : new String[] {"/q/health/live", "/q/metrics", "/dashboard/"}) {
            HttpResponse<String> r = ManagementEndpoint.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.uri().getScheme()).isEqualTo("https");
            assertThat(r.sslSession().orElseThrow().getPeerCertificates()[0]).as(path).isEqualTo(expected);
        }
    }

    @Test
    void plainHttpGetsNoHttpAnswer() throws Exception {
        for (String path : new String[] {"/q/metrics", "/dashboard/api/state", "/q/health/ready"}) {
            assertThat(ManagementEndpoint.plainHttp(path, null)).as("plain HTTP GET %s", path).doesNotStartWith("HTTP/");
        }
    }
}
