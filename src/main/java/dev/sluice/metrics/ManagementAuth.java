package dev.sluice.metrics;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Metrics and dashboard behind a bearer token, as Kueue protects its metrics (its metrics-auth and metrics-reader
 * roles): with {@code sluice.management.auth.enabled} every management request but the health probes
 * ({@code /q/health...}, which kubelet calls without a token) needs {@code Authorization: Bearer <token>}; the token
 * is checked with a TokenReview and its user's right with a SubjectAccessReview on the request's path
 * ({@code get} on the non-resource URL, e.g. {@code /q/metrics}). 401 without a valid token, 403 without the right.
 * Answers are kept 10 s (a scrape every few seconds costs one review pair per token and path). The management port
 * speaks HTTPS only (application.properties), so a token never travels in clear.
 */
@ApplicationScoped
public class ManagementAuth {
    private static final Logger LOG = Logger.getLogger(ManagementAuth.class);
    private static final long TTL_MS = 10_000;
    private static final int MAX_ENTRIES = 1024;

    private final KubernetesClient client;
    private final boolean enabled;
    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /** The answer for a token on a path: HTTP code (200: let through) and the message otherwise. */
    record Verdict(int code, String message) {
    }

    private record Cached(Verdict verdict, long atMillis, String token) {
    }

    public ManagementAuth(KubernetesClient client,
            @ConfigProperty(name = "sluice.management.auth.enabled", defaultValue = "false") boolean enabled) {
        this.client = client;
        this.enabled = enabled;
    }

    void routes(@Observes ManagementInterface management) {
        if (!enabled) {
            return;
        }
        management.router().route().order(-100).blockingHandler(this::check, false);
        LOG.info("metrics and dashboard need a bearer token (TokenReview, SubjectAccessReview); health probes are open");
    }

    private void check(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (path.equals("/q/health") || path.startsWith("/q/health/")) {
            ctx.next();
            return;
        }
        String header = ctx.request().getHeader("Authorization");
        String token = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : "";
        Verdict v = token.isEmpty() ? new Verdict(401, "a bearer token is needed (Authorization: Bearer <token>)")
                : verdict(token, path);
        if (v.code() == 200) {
            ctx.next();
        } else {
            if (v.code() == 401) {
                ctx.response().putHeader("WWW-Authenticate", "Bearer");
            }
            ctx.response().setStatusCode(v.code()).putHeader("Content-Type", "text/plain; charset=utf-8")
                    .end(v.message() + "\n");
        }
    }

    Verdict verdict(String token, String path) {
        String key = Integer.toHexString(token.hashCode()) + token.length() + "|" + path;
        long now = System.currentTimeMillis();
        synchronized (cache) {
            Cached c = cache.get(key);
            if (c != null && now - c.atMillis() < TTL_MS && c.token().equals(token)) {
                return c.verdict();
            }
        }
        Verdict v;
        try {
            v = review(token, path);
        } catch (KubernetesClientException e) {
            LOG.warnf("could not check a token for %s: %s", path, e.getMessage());
            return new Verdict(503, "the token could not be checked (the API server answered " + e.getCode() + ")");
        }
        synchronized (cache) {
            cache.put(key, new Cached(v, now, token));
        }
        return v;
    }

    private Verdict review(String token, String path) {
        TokenReview tr = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
                .withNewSpec().withToken(token).endSpec().build());
        if (tr == null || tr.getStatus() == null || !Boolean.TRUE.equals(tr.getStatus().getAuthenticated())) {
            String why = tr == null || tr.getStatus() == null || tr.getStatus().getError() == null ? ""
                    : ": " + tr.getStatus().getError();
            return new Verdict(401, "the bearer token is not valid" + why);
        }
        UserInfo user = tr.getStatus().getUser();
        SubjectAccessReview sar = client.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder()
                .withNewSpec().withUser(user.getUsername()).withGroups(user.getGroups()).withUid(user.getUid())
                .withExtra(user.getExtra()).withNewNonResourceAttributes().withPath(path).withVerb("get")
                .endNonResourceAttributes().endSpec().build());
        boolean allowed = sar != null && sar.getStatus() != null && Boolean.TRUE.equals(sar.getStatus().getAllowed())
                && !Boolean.TRUE.equals(sar.getStatus().getDenied());
        return allowed ? new Verdict(200, null) : new Verdict(403, "user \"" + user.getUsername()
                + "\" may not get " + path + " (bind the ClusterRole <release>-metrics-reader)");
    }
}
