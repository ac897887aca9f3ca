package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.app.ManagementEndpoint;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A renewed certificate (new files at the same paths, as cert-manager writes them) is served without a restart, on
 * the webhook port and on the management port (health, metrics, dashboard) alike.
 */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class TlsReloadTest {

    @Test
    void aRotatedCertificateIsServed() throws Exception {
        BigInteger before = servedSerial();
        assertThat(before).isEqualTo(serial(TestTls.files().certFile()));

        BigInteger renewed = serial(TestTls.rotate().certFile());
        assertThat(renewed).isNotEqualTo(before);

        // the client trusts only the new certificate: handshakes fail until the server reloads its files
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .untilAsserted(() -> assertThat(servedSerial()).isEqualTo(renewed));
    }

    @Test
    void theManagementPortServesTheRotatedCertificateToo() throws Exception {
        assertThat(managementSerial()).isEqualTo(serial(TestTls.files().certFile()));

        BigInteger renewed = serial(TestTls.rotate().certFile());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .untilAsserted(() -> assertThat(managementSerial()).isEqualTo(renewed));
    }

    private static BigInteger managementSerial() throws Exception {
        HttpResponse<String> answer = ManagementEndpoint.get("/q/health/live");
        assertThat(answer.statusCode()).isEqualTo(200);
        return ((X509Certificate) answer.sslSession().orElseThrow().getPeerCertificates()[0]).getSerialNumber();
    }

    private static BigInteger servedSerial() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + Webhook.sslPort() + "/mutate"))
                .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        // a fresh client each time: no pooled connection from before the rotation
        HttpResponse<String> answer = Webhook.client(TestTls.files().certFile())
                .send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(400);
        return ((X509Certificate) answer.sslSession().orElseThrow().getPeerCertificates()[0]).getSerialNumber();
    }

    private static BigInteger serial(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return ((X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in)).getSerialNumber();
        }
    }
}
