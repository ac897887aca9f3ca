package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.Integrations;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kinds of issue 28 held by a suspend field, at creation (Kueue's {@code *_webhook_test.go} "default" cases: a
 * queued job is suspended): a labeled job of a kind switched on is held the kind's way; switched off, it passes.
 */
class SuspendKindsWebhookTest {

    private static ReviewRequest labeledCreate(String manifest) throws Exception {
        ObjectNode job = Reviews.load("/jobs/" + manifest).get(0);
        byte[] body = JsonMapper.builder().build().writeValueAsString(Reviews.create(job)).getBytes(StandardCharsets.UTF_8);
        return ReviewRequest.parse(body, AdmissionEndpoints.MAPPER);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"xgboostjob.yaml, xgboostjob, /spec/runPolicy", "paddlejob.yaml, paddlejob, /spec/runPolicy",
        "jaxjob.yaml, jaxjob, /spec/runPolicy", "raycluster.yaml, raycluster, /spec",
        "rayservice.yaml, rayservice, /spec/rayClusterConfig",
        "appwrapper.yaml, appwrapper, /spec"})
    void aQueuedJobIsSuspendedAtCreation(String manifest, String integration, String where) throws Exception {
        Verdict on = new JobMutation(new Integrations(Set.of(integration)::contains, true).kinds(),
                AdmissionEndpoints.MAPPER).mutate(labeledCreate(manifest), false);
        assertThat(on.allowed()).isTrue();
        assertThat(on.patch()).as("held").isNotNull();
        assertThat(on.patch()).as(on.patch().toString()).anySatisfy(op -> {
            // the suspend field added, or its parent with it
            assertThat(op.path("op").asText()).isIn("add", "replace");
            if (op.path("path").asText().equals(where + "/suspend")) {
                assertThat(op.path("value").asBoolean()).isTrue();
            } else {
                assertThat(op.path("path").asText()).isEqualTo(where);
                assertThat(op.path("value").path("suspend").asBoolean()).isTrue();
            }
        });

        Verdict off = new JobMutation(new Integrations(Set.of("job", "jobset")::contains, true).kinds(),
                AdmissionEndpoints.MAPPER).mutate(labeledCreate(manifest), false);
        assertThat(off.allowed()).isTrue();
        assertThat(off.patch()).as("switched off: untouched").isNull();
    }
}
