package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The manifests in webhooks/ say what the endpoints expect: safe selectors, Fail, no side effects, v1 reviews. */
class WebhookManifestsTest {
    static final Path DIR = Path.of("webhooks");
    static final Set<String> PATHS = Set.of("/mutate", "/mutate-default-queue", "/validate");

    private static List<JsonNode> webhooks(String file) throws IOException {
        JsonNode config = Reviews.YAML.readTree(Files.readString(DIR.resolve(file)));
        assertThat(config.at("/metadata/annotations").get("cert-manager.io/inject-ca-from").asText())
                .isEqualTo("sluice-system/sluice-webhook");
        List<JsonNode> hooks = new ArrayList<>();
        config.get("webhooks").forEach(hooks::add);
        for (JsonNode hook : hooks) {
            assertThat(hook.path("failurePolicy").asText()).as(hook.path("name").asText()).isEqualTo("Fail");
            assertThat(hook.path("sideEffects").asText()).isEqualTo("None");
            assertThat(hook.path("admissionReviewVersions").toString()).isEqualTo("[\"v1\"]");
            assertThat(hook.path("timeoutSeconds").asInt()).isBetween(1, 10);
            assertThat(PATHS).contains(hook.at("/clientConfig/service/path").asText());
            assertThat(hook.at("/clientConfig/service/name").asText()).isEqualTo("sluice-webhook");
        }
        return hooks;
    }

    @Test
    void jobEntriesCallSluiceOnlyForLabeledObjectsOutsideSystemNamespaces() throws IOException {
        List<JsonNode> hooks = new ArrayList<>(webhooks("mutating-webhook-configuration.yaml"));
        hooks.add(webhooks("validating-webhook-configuration.yaml").get(0));
        for (JsonNode hook : hooks) {
            JsonNode objectSelector = hook.at("/objectSelector/matchExpressions/0");
            assertThat(objectSelector.path("key").asText()).isEqualTo("kueue.x-k8s.io/queue-name");
            boolean defaultQueue = hook.at("/clientConfig/service/path").asText().equals("/mutate-default-queue");
            assertThat(objectSelector.path("operator").asText()).isEqualTo(defaultQueue ? "DoesNotExist" : "Exists");
            JsonNode excluded = hook.at("/namespaceSelector/matchExpressions/0");
            assertThat(excluded.path("operator").asText()).isEqualTo("NotIn");
            assertThat(excluded.path("values").toString()).contains("\"kube-system\"", "\"sluice-system\"");
            if (defaultQueue) {
                assertThat(hook.at("/namespaceSelector/matchLabels").get("sluice.dev/queue-by-default").asText())
                        .isEqualTo("true");
            }
        }
    }

    @Test
    void queueObjectsHaveTheirOwnEntry() throws IOException {
        JsonNode queues = webhooks("validating-webhook-configuration.yaml").get(1);
        assertThat(queues.has("objectSelector")).isFalse();
        assertThat(queues.path("rules").toString()).contains("kueue.x-k8s.io", "clusterqueues", "localqueues",
                "resourceflavors", "workloadpriorityclasses", "topologies");
    }
}
