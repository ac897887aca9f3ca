package dev.sluice.controller.cache;

import dev.sluice.controller.lease.LeaseClient;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Vertx;

/**
 * The Kubernetes client a session's informers list and watch on: its own HTTP client on a Vert.x instance of its own
 * (one event-loop thread), not Quarkus's.
 *
 * <p>fabric8's informers parse each LIST page and watch event, and put its objects into their stores, on the event
 * loop their HTTP client runs on. On Quarkus's loops that work (a start-up with a quarter of a million Workloads
 * stored is minutes of it on a small machine) shares the threads that answer the health probes, the webhooks, the
 * conversion endpoint and the controller's own writes, which then waited behind it for up to 20 s at a time. On a
 * loop of its own it waits for nothing but itself. One loop: the informers' work is one stream of pages and events
 * whichever thread runs it, and a second would only take CPU from the engine.
 */
public final class InformerClient implements AutoCloseable {

    private final Vertx vertx;
    private final KubernetesClient client;

    public InformerClient(Config config) {
        this.vertx = LeaseClient.newVertx(1);
        this.client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientFactory(LeaseClient.factories.apply(vertx)).build();
    }

    public KubernetesClient client() {
        return client;
    }

    /** The Vert.x the informers run on (tests: its loop is not one of Quarkus's). */
    Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() {
        LeaseClient.close(client, vertx, "the informers'");
    }
}
