package dev.sluice.controller.lease;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The Kubernetes client leader election renews the Lease on: its own HTTP client on a Vert.x instance of its own (one
 * event-loop thread), not Quarkus's.
 *
 * <p>Inside Quarkus every fabric8 client built with the default factory shares Quarkus's Vert.x event loops, and
 * fabric8's informers fill their stores on those loops: with tens of thousands of cached objects one initial LIST
 * page blocked a loop for up to 13 s, longer than the renew deadline, and the Lease was lost twice during start-up.
 * A separate client with the same shared loops does not help; separate threads do.
 */
public final class LeaseClient implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LeaseClient.class);
    private static final String DISABLE_DNS_RESOLVER = "vertx.disableDnsResolver";

    /**
     * How the HTTP client factory is made on a Vert.x of its own (the Lease client's, and the informers',
     * {@code InformerClient}). The test suite wraps it so that their requests are recorded for the RBAC check, as
     * every other client's are.
     */
    public static volatile java.util.function.Function<Vertx, io.fabric8.kubernetes.client.http.HttpClient.Factory> factories =
            VertxHttpClientFactory::new;

    private final Vertx vertx;
    private final KubernetesClient client;

    LeaseClient(Config config) {
        this.vertx = newVertx(1);
        this.client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientFactory(factories.apply(vertx)).build();
    }

    KubernetesClient client() {
        return client;
    }

    /**
     * A Vert.x with {@code eventLoops} event-loop threads (for the Lease one is plenty: a request every retry period); the worker pools are created lazily and kept to one
     * thread. As fabric8 does for its own instances, the JDK resolver is used (the property is read when the
     * instance is built, so it is set only meanwhile, and only if nobody set it).
     */
    public static Vertx newVertx(int eventLoops) {
        String before = System.getProperty(DISABLE_DNS_RESOLVER);
        if (before == null) {
            System.setProperty(DISABLE_DNS_RESOLVER, "true");
        }
        try {
            return Vertx.vertx(new VertxOptions()
                    .setEventLoopPoolSize(eventLoops)
                    .setWorkerPoolSize(1)
                    .setInternalBlockingPoolSize(1)
                    .setUseDaemonThread(true)
                    .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
                            .setClassPathResolvingEnabled(false)));
        } finally {
            if (before == null) {
                System.clearProperty(DISABLE_DNS_RESOLVER);
            }
        }
    }

    @Override
    public void close() {
        close(client, vertx, "the Lease client's");
    }

    /** Closes a client built on a Vert.x of its own ({@link #newVertx}), then that Vert.x, waiting up to 5 s. */
    public static void close(KubernetesClient client, Vertx vertx, String whose) {
        client.close();
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debugf("closing %s Vert.x: %s", whose, e.toString());
        }
    }
}
