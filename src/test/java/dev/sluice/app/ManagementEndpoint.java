package dev.sluice.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.eclipse.microprofile.config.ConfigProvider;

/** GETs a path on the management interface (health, metrics) of the application under test. */
public final class ManagementEndpoint {

    private ManagementEndpoint() {
    }

    public static HttpResponse<String> get(String path) throws Exception {
        int port = ConfigProvider.getConfig().getOptionalValue("quarkus.management.test-port", Integer.class).orElse(9001);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
