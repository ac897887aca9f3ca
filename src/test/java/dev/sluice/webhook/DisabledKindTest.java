package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.Integrations;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The webhooks act on the kinds switched on only: any other kind passes untouched. */
class DisabledKindTest {

    private static ReviewRequest labeledCreate(String seed) throws Exception {
        ObjectNode job = Reviews.load("/seeds/ack-kube-queue/" + seed).get(0);
        ((ObjectNode) job.path("metadata").path("annotations")).remove("scheduling.x-k8s.io/suspend"); // not held yet
        job.withObject("/metadata").withObject("/labels").put("kueue.x-k8s.io/queue-name", "lq");
        job.withObject("/metadata").put("name", "j").put("namespace", "default");
        byte[] body = JsonMapper.builder().build().writeValueAsString(Reviews.create(job)).getBytes(StandardCharsets.UTF_8);
        return ReviewRequest.parse(body, AdmissionEndpoints.MAPPER);
    }

    @Test
    void aDisabledKindPassesUntouchedAnEnabledOneIsHeld() throws Exception {
        Integrations onlyJobs = new Integrations(Set.of("job", "jobset")::contains, true);
        Verdict off = new JobMutation(onlyJobs.kinds(), AdmissionEndpoints.MAPPER)
                .mutate(labeledCreate("tfjob-queued.yaml"), false);
        assertThat(off.allowed()).isTrue();
        assertThat(off.patch()).isNull();

        Integrations all = new Integrations(name -> true, true);
        Verdict on = new JobMutation(all.kinds(), AdmissionEndpoints.MAPPER)
                .mutate(labeledCreate("tfjob-queued.yaml"), false);
        assertThat(on.allowed()).isTrue();
        assertThat(on.patch().toString()).as("switched on, the TFJob is held the kind's way")
                .contains("/spec/runPolicy").contains("\"suspend\":true");
    }

    @Test
    void defaultsAreThoseOfTheChart() {
        var config = new io.smallrye.config.SmallRyeConfigBuilder()
                .withDefaultValues(Map.of("sluice.integrations.rayjob.enabled", "true", "sluice.kube-queue-compat", "false"))
                .build();
        Integrations integrations = new Integrations(config);
        assertThat(integrations.kinds().all()).extracting(k -> k.integrationName())
                .containsExactly("job", "jobset", "rayjob");
        assertThat(integrations.kubeQueueCompat()).isFalse();
        assertThat(new Integrations(new io.smallrye.config.SmallRyeConfigBuilder().build()).kubeQueueCompat()).isTrue();
    }
}
