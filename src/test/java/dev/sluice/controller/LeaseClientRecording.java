package dev.sluice.controller;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.util.function.UnaryOperator;

/** Test-only: lets the suite's request recorder wrap the Lease client's factory (see {@link LeaseClient#factories}). */
public final class LeaseClientRecording {

    private LeaseClientRecording() {
    }

    public static void install(UnaryOperator<HttpClient.Factory> wrap) {
        LeaseClient.factories = vertx -> wrap.apply(new VertxHttpClientFactory(vertx));
    }
}
