package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** {@code POST /validate} for jobs: only Sluice releases a queued job; a running job keeps its queue labels. */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class JobGuardWebhookTest {

    private static ObjectNode queued() {
        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "multislice-1slice");
        ObjectNode meta = (ObjectNode) js.get("metadata");
        meta.put("namespace", "default");
        meta.put("uid", "5f2c8f1e-0000-4000-8000-000000000001");
        ((ObjectNode) js.get("spec")).put("suspend", true);
        return js;
    }

    private static ObjectNode released(ObjectNode job) {
        ObjectNode copy = job.deepCopy();
        ((ObjectNode) copy.get("spec")).put("suspend", false);
        return copy;
    }

    @Test
    void aUserCannotReleaseAQueuedJob() throws Exception {
        ObjectNode old = queued();
        JsonNode response = Webhook.review("/validate", Reviews.update(released(old), old, "alice@example.com"));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(403);
        assertThat(response.at("/status/message").asText())
                .startsWith("JobSet default/multislice-1slice is queued in LocalQueue multislice-queue and is started"
                        + " when admitted")
                .contains("only Sluice (system:serviceaccount:sluice-system:sluice) may set spec.suspend to false")
                .containsPattern("kubectl describe workload -n default jobset-multislice-1slice-[0-9a-f]{5}$");
    }

    @Test
    void theControllerReleasesAQueuedJob() throws Exception {
        ObjectNode old = queued();
        JsonNode response = Webhook.review("/validate", Reviews.update(released(old), old, Reviews.CONTROLLER));
        assertThat(response.path("allowed").asBoolean()).isTrue();
    }

    @Test
    void aUserMayHoldAJobAgainAndEditAQueuedOne() throws Exception {
        ObjectNode running = released(queued());
        ObjectNode held = running.deepCopy();
        ((ObjectNode) held.get("spec")).put("suspend", true);
        assertThat(Webhook.review("/validate", Reviews.update(held, running, Reviews.USER))
                .path("allowed").asBoolean()).isTrue();

        ObjectNode old = queued();
        ObjectNode moved = old.deepCopy();
        ((ObjectNode) moved.at("/metadata/labels")).put("kueue.x-k8s.io/queue-name", "other-queue");
        assertThat(Webhook.review("/validate", Reviews.update(moved, old, Reviews.USER))
                .path("allowed").asBoolean()).isTrue();
    }

    @Test
    void aRunningJobKeepsItsQueueLabel() throws Exception {
        ObjectNode running = released(queued());
        ObjectNode moved = running.deepCopy();
        ((ObjectNode) moved.at("/metadata/labels")).put("kueue.x-k8s.io/queue-name", "other-queue");
        JsonNode response = Webhook.review("/validate", Reviews.update(moved, running, Reviews.USER));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/message").asText()).isEqualTo("JobSet default/multislice-1slice is running:"
                + " metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: \"other-queue\": cannot change while"
                + " the job runs (it was \"multislice-queue\"); labels take effect on a queued (suspended) job");
    }

    @Test
    void aRunningJobKeepsItsPriorityClassLabel() throws Exception {
        ObjectNode running = released(queued());
        ObjectNode raised = running.deepCopy();
        ((ObjectNode) raised.at("/metadata/labels")).put("kueue.x-k8s.io/priority-class", "high");
        JsonNode response = Webhook.review("/validate", Reviews.update(raised, running, Reviews.USER));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/message").asText()).contains(
                "metadata.labels[kueue.x-k8s.io/priority-class]: Invalid value: \"high\": cannot change while the job"
                        + " runs (it was <none>)");
    }

    @Test
    void aJobSetReleasesItsOwnChildJob() throws Exception {
        ObjectNode child = Reviews.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: multislice-1slice-slice-0
                  namespace: default
                  labels: {kueue.x-k8s.io/queue-name: multislice-queue}
                  ownerReferences:
                  - {apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: multislice-1slice, uid: u1, controller: true}
                spec:
                  suspend: true
                  template:
                    spec:
                      containers: [{name: c, image: busybox}]
                """);
        JsonNode response = Webhook.review("/validate",
                Reviews.update(released(child), child, "system:serviceaccount:jobset-system:jobset-controller-manager"));
        assertThat(response.path("allowed").asBoolean()).isTrue();
    }

    @Test
    void unlabeledJobsAreNotGuarded() throws Exception {
        ObjectNode old = queued();
        ((ObjectNode) old.get("metadata")).remove("labels");
        JsonNode response = Webhook.review("/validate", Reviews.update(released(old), old, Reviews.USER));
        assertThat(response.path("allowed").asBoolean()).isTrue();
    }
}
