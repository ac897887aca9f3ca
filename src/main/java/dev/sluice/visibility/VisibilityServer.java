package dev.sluice.visibility;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.OperatorLifecycle;
import dev.sluice.controller.ControllerRuntime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.TrustOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.X509TrustManager;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Kueue's visibility API ({@code visibility.kueue.x-k8s.io} v1beta1 and v1beta2) as an aggregated API server: HTTPS
 * on its own port with the controller's certificate. The TLS layer asks for a client certificate but accepts any;
 * every request is then checked in {@link VisibilityRequests}: the front proxy's certificate against the
 * requestheader CA, the user from its headers, the user's right by SubjectAccessReview.
 */
@ApplicationScoped
public class VisibilityServer {
    private static final Logger LOG = Logger.getLogger(VisibilityServer.class);

    private final Vertx vertx;
    private final OperatorLifecycle lifecycle;
    private final boolean enabled;
    private final int port;
    private final Path certFile;
    private final Path keyFile;
    private final VisibilityRequests requests;
    /** SubjectAccessReviews and engine reads block: never on the event loop. */
    private final ExecutorService workers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "sluice-visibility");
        t.setDaemon(true);
        return t;
    });
    private volatile HttpServer server;
    private long certModified;
    private long reloadTimer = -1;

    public VisibilityServer(Vertx vertx, OperatorLifecycle lifecycle, KubernetesClient client, ControllerRuntime runtime,
            dev.sluice.forecast.ForecastService forecasts,
            @ConfigProperty(name = "sluice.visibility.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "sluice.visibility.port", defaultValue = "8082") int port,
            @ConfigProperty(name = "quarkus.tls.key-store.pem.0.cert") String certFile,
            @ConfigProperty(name = "quarkus.tls.key-store.pem.0.key") String keyFile) {
        this.vertx = vertx;
        this.lifecycle = lifecycle;
        this.enabled = enabled;
        this.port = port;
        this.certFile = Path.of(certFile);
        this.keyFile = Path.of(keyFile);
        this.requests = new VisibilityRequests(new FrontProxyTrust(client), new AccessReviews(client), runtime,
                new StandbyState(client, runtime::fairSharingSettings, runtime::admissionFairSharingSettings), ForecastAnnotator.of(forecasts), new ObjectMapper());
    }

    void onStart(@Observes StartupEvent event) {
        if (!enabled || !lifecycle.mode().runsController()) {
            return;
        }
        HttpServerOptions options = new HttpServerOptions().setPort(port).setSsl(true)
                .setKeyCertOptions(keyCert()).setClientAuth(ClientAuth.REQUEST)
                .setTrustOptions(TrustOptions.wrap(new AcceptAnyClient()));
        HttpServer s = vertx.createHttpServer(options).requestHandler(this::handle);
        try {
            s.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the visibility API cannot listen on port " + port
                    + " (sluice.visibility.port): " + e.getMessage(), e);
        }
        server = s;
        certModified = modified();
        // a renewed certificate (cert-manager rewrites the Secret's files) is served without a restart
        reloadTimer = vertx.setPeriodic(60_000, id -> reloadIfChanged());
        LOG.infof("visibility API (visibility.kueue.x-k8s.io v1beta2, v1beta1) on HTTPS port %d", s.actualPort());
    }

    void onStop(@Observes ShutdownEvent event) {
        if (reloadTimer >= 0) {
            vertx.cancelTimer(reloadTimer);
        }
        HttpServer s = server;
        if (s != null) {
            s.close();
        }
        workers.shutdownNow();
    }

    /** The port actually listened on (tests use port 0); -1 when not serving. */
    public int actualPort() {
        HttpServer s = server;
        return s == null ? -1 : s.actualPort();
    }

    private PemKeyCertOptions keyCert() {
        return new PemKeyCertOptions().setCertPath(certFile.toString()).setKeyPath(keyFile.toString());
    }

    private long modified() {
        try {
            return Files.getLastModifiedTime(certFile).toMillis() ^ Files.getLastModifiedTime(keyFile).toMillis();
        } catch (Exception e) {
            return certModified;
        }
    }

    private void reloadIfChanged() {
        long m = modified();
        HttpServer s = server;
        if (m != certModified && s != null) {
            certModified = m;
            s.updateSSLOptions(new HttpServerOptions().setSsl(true).setKeyCertOptions(keyCert())
                    .setClientAuth(ClientAuth.REQUEST).setTrustOptions(TrustOptions.wrap(new AcceptAnyClient()))
                    .getSslOptions());
        }
    }

    private void handle(HttpServerRequest req) {
        List<X509Certificate> chain = new ArrayList<>();
        try {
            req.connection().peerCertificates().forEach(c -> chain.add((X509Certificate) c));
        } catch (SSLPeerUnverifiedException e) {
            // no client certificate: answered 401 below
        }
        req.pause();
        workers.execute(() -> {
            VisibilityRequests.Reply r;
            try {
                r = requests.handle(req.method().name(), req.path(), req.params(), req.headers(), chain);
            } catch (RuntimeException e) {
                LOG.warnf(e, "visibility request %s failed", req.path());
                r = requests.failure(ApiStatus.unavailable("the visibility API failed to answer: " + e.getMessage()));
            }
            req.response().setStatusCode(r.code()).putHeader("Content-Type", "application/json").end(r.body());
        });
    }

    /** Lets the handshake through with any client certificate (or none); each request's chain is verified itself. */
    private static final class AcceptAnyClient implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("server side only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
