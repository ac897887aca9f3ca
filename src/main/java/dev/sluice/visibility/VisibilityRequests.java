package dev.sluice.visibility;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.controller.ControllerRuntime;
import io.vertx.core.MultiMap;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request to the visibility API, start to end: the caller must be the API server's front proxy (its client
 * certificate), the user is the one its headers name, and the user must be allowed the request (SubjectAccessReview
 * on the request's own attributes, as any aggregated server authorizes). Discovery needs only authentication (the
 * API server's system:discovery role lets every authenticated user read it).
 */
final class VisibilityRequests {
    private static final long READ_TIMEOUT_MS = 5_000;

    record Reply(int code, String body) {
    }

    private final FrontProxyTrust trust;
    private final AccessReviews reviews;
    private final ControllerRuntime runtime;
    private final ObjectMapper json;
    private final StandbyState standby;

    private final PendingSummaries.Annotator annotator;

    VisibilityRequests(FrontProxyTrust trust, AccessReviews reviews, ControllerRuntime runtime, StandbyState standby,
            PendingSummaries.Annotator annotator, ObjectMapper json) {
        this.annotator = annotator;
        this.standby = standby;
        this.trust = trust;
        this.reviews = reviews;
        this.runtime = runtime;
        this.json = json;
    }

    Reply handle(String method, String path, MultiMap params, MultiMap headers, List<X509Certificate> chain) {
        if (path.equals("/healthz") || path.equals("/livez") || path.equals("/readyz")) {
            return new Reply(200, "ok");
        }
        FrontProxyTrust.Settings s = trust.settings();
        if (s == null) {
            return failure(ApiStatus.unauthorized(trust.problem()));
        }
        String why = FrontProxyTrust.verify(s, chain);
        if (why != null) {
            return failure(ApiStatus.unauthorized(why));
        }
        RemoteUser user = user(s, headers);
        if (user == null) {
            return failure(ApiStatus.unauthorized("the front proxy named no user (headers " + s.userHeaders() + ")"));
        }
        if (!method.equals("GET")) {
            return failure(ApiStatus.methodNotAllowed(method));
        }
        Map<String, String> first = new HashMap<>();
        params.names().forEach(n -> first.put(n, params.get(n)));
        VisibilityPaths.Target target = VisibilityPaths.parse(path, first);
        if (target instanceof VisibilityPaths.Invalid invalid) {
            return failure(invalid.status());
        }
        if (target instanceof VisibilityPaths.Discovery d) {
            return ok(d.group() == null ? DiscoveryDocuments.groupList()
                    : d.version() == null ? DiscoveryDocuments.group() : DiscoveryDocuments.resources(d.version()));
        }
        PendingQuery q = ((VisibilityPaths.Pending) target).query();
        String resource = q.localQueue() ? "localqueues" : "clusterqueues";
        AccessReviews.Decision decision = reviews.review(user, new AccessReviews.Attributes("get", VisibilityPaths.GROUP,
                q.version(), resource, "pendingworkloads", q.queue(), q.namespace()));
        if (!decision.allowed()) {
            return failure(ApiStatus.forbidden(resource + "/pendingworkloads", q.queue(), user.name(), "get",
                    q.namespace(), decision.reason()));
        }
        return read(q);
    }

    private Reply read(PendingQuery q) {
        try {
            PendingSummaries.Answer a = runtime.read(state -> PendingSummaries.read(state, q, annotator))
                    .get(READ_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return a.failure() != null ? failure(a.failure()) : ok(a.body());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ControllerRuntime.NotLeadingException) {
                StandbyState.Snapshot s = standby.current();
                PendingSummaries.Answer a = PendingSummaries.read(s.engine(), s::workload, q,
                        PendingSummaries.Annotator.NONE);
                return a.failure() != null ? failure(a.failure()) : ok(a.body());
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            return failure(ApiStatus.unavailable("the engine was busy for more than " + READ_TIMEOUT_MS
                    + " ms; try again"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failure(ApiStatus.unavailable("interrupted"));
        }
    }

    private static RemoteUser user(FrontProxyTrust.Settings s, MultiMap headers) {
        String name = null;
        for (String h : s.userHeaders()) {
            String v = headers.get(h);
            if (v != null && !v.isEmpty()) {
                name = v;
                break;
            }
        }
        if (name == null) {
            return null;
        }
        List<String> groups = new ArrayList<>();
        for (String h : s.groupHeaders()) {
            groups.addAll(headers.getAll(h));
        }
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (String prefix : s.extraPrefixes()) {
            String p = prefix.toLowerCase(Locale.ROOT);
            for (String h : headers.names()) {
                if (h.toLowerCase(Locale.ROOT).startsWith(p) && h.length() > p.length()) {
                    String key = java.net.URLDecoder.decode(h.substring(p.length()).toLowerCase(Locale.ROOT),
                            java.nio.charset.StandardCharsets.UTF_8);
                    extra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(headers.getAll(h));
                }
            }
        }
        return new RemoteUser(name, groups, extra);
    }

    private Reply ok(Map<String, Object> body) {
        return new Reply(200, write(body));
    }

    Reply failure(ApiStatus status) {
        return new Reply(status.code(), write(status.toJson()));
    }

    private String write(Object body) {
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
