package dev.sluice.visibility;

import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Asks the API server whether a user may do what a request does (SubjectAccessReview), as an aggregated server's
 * delegated authorizer does. Answers are kept 10 seconds (as the generic API server's defaults), so a page of
 * requests costs one review; a denial is kept as long, so a newly granted right works within 10 seconds.
 */
final class AccessReviews {
    private static final long TTL_MS = 10_000;
    private static final int MAX_ENTRIES = 4096;

    /** Allowed, or denied with the authorizer's reason. */
    record Decision(boolean allowed, String reason) {
    }

    /** What is asked: verb on group/resource/subresource name in namespace (null: cluster scope). */
    record Attributes(String verb, String group, String version, String resource, String subresource, String name,
            String namespace) {
    }

    private record Cached(Decision decision, long atMillis) {
    }

    private final KubernetesClient client;
    private final Map<String, Cached> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    AccessReviews(KubernetesClient client) {
        this.client = client;
    }

    Decision review(RemoteUser user, Attributes a) {
        String key = user + "|" + a;
        long now = System.currentTimeMillis();
        synchronized (cache) {
            Cached c = cache.get(key);
            if (c != null && now - c.atMillis() < TTL_MS) {
                return c.decision();
            }
        }
        SubjectAccessReview sar = new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser(user.name()).withGroups(user.groups()).withExtra(user.extra())
                .withNewResourceAttributes()
                .withVerb(a.verb()).withGroup(a.group()).withVersion(a.version()).withResource(a.resource())
                .withSubresource(a.subresource()).withName(a.name()).withNamespace(a.namespace())
                .endResourceAttributes()
                .endSpec().build();
        SubjectAccessReview answer = client.authorization().v1().subjectAccessReview().create(sar);
        SubjectAccessReviewStatus st = answer == null ? null : answer.getStatus();
        // no status (or not allowed) is a denial: only an explicit yes lets a user in
        Decision d = new Decision(st != null && Boolean.TRUE.equals(st.getAllowed()) && !Boolean.TRUE.equals(st.getDenied()),
                st == null ? "the authorizer gave no answer" : st.getReason());
        synchronized (cache) {
            cache.put(key, new Cached(d, now));
        }
        return d;
    }
}
