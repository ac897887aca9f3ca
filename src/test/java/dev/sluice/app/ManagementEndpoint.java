package dev.sluice.app;

import dev.sluice.webhook.TestTls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The management interface (health, metrics, dashboard) of the application under test: HTTPS only, as in
 * production, with the test certificate ({@link TestTls}), which the clients here trust and nothing else.
 */
public final class ManagementEndpoint {

    private ManagementEndpoint() {
    }

    public static int port() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.management.test-port", Integer.class).orElse(9001);
    }

    /** {@code https://localhost:<management port><path>}. */
    public static URI uri(String path) {
        return URI.create("https://localhost:" + port() + path);
    }

    /** A client trusting only the test certificate in use now. */
    public static HttpClient client() {
        return TestTls.client();
    }

    public static HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    public static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client().send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * What the management port sends back to a plain-HTTP GET of {@code path} (with the bearer token, when not
     * null) until it closes the connection: an HTTP answer if it speaks plain HTTP, else whatever TLS sends.
     */
    public static String plainHttp(String path, String token) throws IOException {
        try (Socket socket = new Socket("localhost", port())) {
            socket.setSoTimeout(10_000);
            String request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                    + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(answer);
            } catch (SocketException reset) {
                // closed on us: what came before is the answer
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
