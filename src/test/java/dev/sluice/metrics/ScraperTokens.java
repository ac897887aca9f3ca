package dev.sluice.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The test API server's answers to the token checks of the management port: TokenReviews (token {@link #SCRAPER}
 * is {@link #PROMETHEUS}, {@link #INTRUDER} is alice, anything else is invalid) and SubjectAccessReviews (only
 * prometheus may get a path). Every token reviewed is kept in {@link #TOKENS}, every SubjectAccessReview asked in
 * {@link #REVIEWS}.
 */
public final class ScraperTokens {
    public static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";
    public static final String SCRAPER = "scraper";
    public static final String INTRUDER = "intruder";
    public static final List<String> TOKENS = new ArrayList<>();
    public static final List<JsonNode> REVIEWS = new ArrayList<>();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static KubernetesServer answering;

    /** Metrics and dashboard behind a bearer token, as the chart runs them (metrics.auth.enabled). */
    public static class AuthOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.management.auth.enabled", "true");
        }
    }

    private ScraperTokens() {
    }

    /** Makes the mock answer the reviews (once per mock: the expectations last as long as it does). */
    public static synchronized void answerOn(KubernetesServer mock) {
        if (answering == mock) {
            return;
        }
        answering = mock;
        mock.expect().post().withPath("/apis/authentication.k8s.io/v1/tokenreviews").andReply(201, req -> {
            try {
                ObjectNode tr = (ObjectNode) JSON.readTree(req.getBody().readUtf8());
                String token = tr.get("spec").get("token").asText();
                synchronized (TOKENS) {
                    TOKENS.add(token);
                }
                ObjectNode status = tr.putObject("status");
                String user = switch (token) {
                    case SCRAPER -> PROMETHEUS;
                    case INTRUDER -> "alice";
                    default -> null;
                };
                status.put("authenticated", user != null);
                if (user != null) {
                    status.putObject("user").put("username", user).putArray("groups").add("system:authenticated");
                } else {
                    status.put("error", "token not recognised");
                }
                return tr;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).always();
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews").andReply(201, req -> {
            try {
                ObjectNode sar = (ObjectNode) JSON.readTree(req.getBody().readUtf8());
                synchronized (REVIEWS) {
                    REVIEWS.add(sar);
                }
                boolean allowed = sar.get("spec").get("user").asText().equals(PROMETHEUS);
                sar.putObject("status").put("allowed", allowed);
                return sar;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).always();
    }
}
