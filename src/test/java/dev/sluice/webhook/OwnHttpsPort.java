package dev.sluice.webhook;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * A fixed HTTPS port for the application under test, chosen before it starts, so that a test API server can be told
 * the application's {@code /convert} before it listens, as a CRD's conversion webhook names it (the suite's random
 * port is known only once the application listens). The port is kept in a system property for the test API server's
 * rules, which another class loader may have loaded; the property is put back as it was when the application stops.
 */
public class OwnHttpsPort implements QuarkusTestResourceLifecycleManager {

    static final String PROPERTY = "sluice.test.own-https-port";
    private String before;

    @Override
    public Map<String, String> start() {
        int port = freePort();
        before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, String.valueOf(port));
        return Map.of("quarkus.http.test-ssl-port", String.valueOf(port));
    }

    @Override
    public void stop() {
        if (before == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, before);
        }
    }

    /** The application's conversion webhook, as a CRD's clientConfig.url would name it. */
    public static URI convertUrl() {
        String port = System.getProperty(PROPERTY);
        if (port == null) {
            throw new IllegalStateException(PROPERTY + " is not set: add @QuarkusTestResource(OwnHttpsPort.class)");
        }
        return URI.create("https://localhost:" + port + "/convert");
    }

    /**
     * The file of the certificate the application serves (the suite's TestTls), for a client that trusts only it and
     * reads it when it calls (not generated here: another class loader's TestTls may write it).
     */
    public static Path certificate() {
        return TestTls.DIR.resolve("webhook.crt");
    }

    /**
     * The CA of that certificate (PEM), for a CRD's {@code caBundle}: generating the suite's certificate if no test
     * resource of this class loader did yet (the real-API-server tier installs its CRDs before the application starts).
     */
    public static byte[] caBundle() {
        var files = TestTls.files();
        Path ca = files.trustFile() != null && java.nio.file.Files.isRegularFile(files.trustFile()) ? files.trustFile()
                : files.certFile();
        try {
            return java.nio.file.Files.readAllBytes(ca);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the test CA " + ca, e);
        }
    }

    /** Picks a free port (closed again: the application binds it). */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for the application's HTTPS", e);
        }
    }
}
