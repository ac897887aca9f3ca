package dev.sluice.controller.lease;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.util.function.UnaryOperator;

/** Test-only: lets the suite's request recorder wrap the factory of the clients on a Vert.x of their own, the Lease's and the informers' (see {@link LeaseClient#factories}). */
public final class LeaseClientRecording {

    private LeaseClientRecording() {
    }

    public static void install(UnaryOperator<HttpClient.Factory> wrap) {
        LeaseClient.factories = vertx -> wrap.apply(new VertxHttpClientFactory(vertx));
    }
}
