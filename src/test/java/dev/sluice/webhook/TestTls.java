package dev.sluice.webhook;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.certs.CertificateGenerator;
import io.smallrye.certs.CertificateRequest;
import io.smallrye.certs.Format;
import io.smallrye.certs.PemCertificateFiles;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The webhook port and the management port serve HTTPS only, in tests as in production, so every Quarkus test needs
 * a certificate: this global test resource generates a self-signed one for localhost (once per JVM) and points the
 * default TLS configuration at its PEM files. Tests call either port with {@link #client()}.
 */
@QuarkusTestResource(TestTls.class)
public class TestTls implements QuarkusTestResourceLifecycleManager {

    static final Path DIR = Path.of("target", "webhook-tls").toAbsolutePath();
    private static PemCertificateFiles files;

    /** The certificate and key in use, generated on first call. */
    public static synchronized PemCertificateFiles files() {
        if (files == null) {
            files = generate(DIR, "webhook");
        }
        return files;
    }

    /** Replaces the certificate and key files in place, as cert-manager does when it renews. */
    static synchronized PemCertificateFiles rotate() {
        files = generate(DIR, "webhook");
        return files;
    }

    /** An HTTP client that trusts only the certificate in use now (a fresh one: no connection from before a rotation). */
    public static HttpClient client() {
        return client(files().certFile());
    }

    /** An HTTP client that trusts only the certificate in {@code trustedCert}. */
    public static HttpClient client(Path trustedCert) {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(trustedCert)) {
                trust.setCertificateEntry("sluice",
                        (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            // the JDK client counts the TLS handshake as part of the connect: on a loaded machine a freshly started
            // application's first handshake has taken over 7 s, so the bound is the requests' own (30 s)
            return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(30)).build();
        } catch (Exception e) {
            throw new IllegalStateException("cannot trust the test certificate " + trustedCert, e);
        }
    }

    /** A fresh self-signed certificate for localhost in {@code dir}. */
    static PemCertificateFiles generate(Path dir, String name) {
        try {
            Files.createDirectories(dir);
            return (PemCertificateFiles) new CertificateGenerator(dir, true).generate(new CertificateRequest()
                    .withName(name).withCN("localhost").withSubjectAlternativeName("DNS:localhost")
                    .withFormat(Format.PEM).withDuration(Duration.ofDays(2))).get(0);
        } catch (Exception e) {
            throw new IllegalStateException("cannot generate the test certificate in " + dir, e);
        }
    }

    @Override
    public Map<String, String> start() {
        PemCertificateFiles f = files();
        return Map.of("quarkus.tls.key-store.pem.0.cert", f.certFile().toString(),
                "quarkus.tls.key-store.pem.0.key", f.keyFile().toString());
    }

    @Override
    public void stop() {
    }
}
