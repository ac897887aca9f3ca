package dev.sluice.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The few Workload requests the load driver makes during a run, as plain HTTP with JSON text: create (asynchronous,
 * so that many can be in flight without a thread each), get, and a JSON patch of the status. fabric8's client would
 * build and serialise full model objects for each; the driver's bodies are written once or are a few operations.
 * Every request carries the benchmark's user agent, so the API server does not count it as the controller's.
 */
final class WorkloadApi {

    static final String PREFIX = "/apis/kueue.x-k8s.io/v1beta2/";

    private final String api;
    private final HttpClient http;

    WorkloadApi(String api) {
        this.api = api;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    String url() {
        return api;
    }

    HttpClient http() {
        return http;
    }

    static String collection(String namespace) {
        return PREFIX + "namespaces/" + namespace + "/workloads";
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(30))
                .header("User-Agent", ApiServer.BENCH_AGENT).header("Accept", "application/json");
    }

    /**
     * POSTs a Workload's JSON into its namespace; completes with the answer (201, 409 when it exists, ...), whose
     * body is read only when it is an error (the created object would be tens of MB of text nobody reads).
     */
    CompletableFuture<HttpResponse<String>> create(String namespace, byte[] json) {
        return http.sendAsync(request(collection(namespace)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json)).build(), ERRORS_ONLY);
    }

    CompletableFuture<HttpResponse<String>> create(String namespace, String json) {
        return create(namespace, json.getBytes(StandardCharsets.UTF_8));
    }

    /** The body of an error answer; none (null) for a success. */
    static final HttpResponse.BodyHandler<String> ERRORS_ONLY = info -> info.statusCode() / 100 == 2
            ? HttpResponse.BodySubscribers.replacing(null) : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);

    /** The Workload as stored now, or null when there is none. */
    WorkloadView get(String namespace, String name) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request(collection(namespace) + "/" + name).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() != 200) {
            throw new IOException("GET Workload " + namespace + "/" + name + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return WorkloadJson.workload(r.body());
    }

    /** Every Workload stored now. */
    String list() throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request(PREFIX + "workloads").GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("LIST Workloads: HTTP " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** Applies a JSON patch (RFC 6902) to the status subresource; returns the HTTP status (409: resource version moved). */
    int patchStatus(String namespace, String name, String jsonPatch) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request(collection(namespace) + "/" + name + "/status")
                .header("Content-Type", "application/json-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(jsonPatch)).build(), ERRORS_ONLY);
        return r.statusCode();
    }
}
