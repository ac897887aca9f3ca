package dev.sluice.webhook;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.certs.CertificateGenerator;
import io.smallrye.certs.CertificateRequest;
import io.smallrye.certs.Format;
import io.smallrye.certs.PemCertificateFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The webhook port serves HTTPS only, in tests as in production, so every Quarkus test needs a certificate: this
 * global test resource generates a self-signed one for localhost (once per JVM) and points the default TLS
 * configuration at its PEM files.
 */
@QuarkusTestResource(TestTls.class)
public class TestTls implements QuarkusTestResourceLifecycleManager {

    static final Path DIR = Path.of("target", "webhook-tls").toAbsolutePath();
    private static PemCertificateFiles files;

    /** The certificate and key in use, generated on first call. */
    static synchronized PemCertificateFiles files() {
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

    /** A fresh self-signed certificate for localhost in {@code dir}. */
    static PemCertificateFiles generate(Path dir, String name) {
        try {
            java.nio.file.Files.createDirectories(dir);
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
