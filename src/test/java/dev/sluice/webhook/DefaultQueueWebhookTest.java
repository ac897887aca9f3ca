package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * Namespace opt-in: {@code /mutate-default-queue} is called only by the webhook entry whose namespaceSelector
 * requires {@code sluice.dev/queue-by-default: "true"}, so it queues unlabeled jobs without looking the namespace up.
 */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class DefaultQueueWebhookTest {

    @Test
    void anUnlabeledJobInAnOptedInNamespaceIsQueuedInDefaultAndHeld() throws Exception {
        ObjectNode job = Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        ((ObjectNode) job.get("spec")).put("suspend", false);
        JsonNode response = Webhook.review("/mutate-default-queue", Reviews.create(job));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        JsonNode patch = Reviews.patch(response);
        JsonNode stored = Reviews.apply(patch, job);

        assertThat(stored.at("/metadata/labels").toString()).isEqualTo("{\"kueue.x-k8s.io/queue-name\":\"default\"}");
        assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
        // the label map did not exist: it is created whole, not written under a missing parent
        assertThat(patch.toString()).contains("\"path\":\"/metadata/labels\"");
    }

    @Test
    void theLabelKeyIsEscapedWhenTheLabelsExist() throws Exception {
        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "multislice-2slice");
        ObjectNode labels = (ObjectNode) js.at("/metadata/labels");
        labels.remove("kueue.x-k8s.io/queue-name");
        labels.put("team", "ml");
        JsonNode patch = Reviews.patch(Webhook.review("/mutate-default-queue", Reviews.create(js)));
        assertThat(patch.toString()).contains("\"path\":\"/metadata/labels/kueue.x-k8s.io~1queue-name\"");

        JsonNode stored = Reviews.apply(patch, js);
        assertThat(stored.at("/metadata/labels/team").asText()).isEqualTo("ml");
        assertThat(stored.at("/metadata/labels").get("kueue.x-k8s.io/queue-name").asText()).isEqualTo("default");
        assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
        assertThat(stored.at("/spec/replicatedJobs/0/template/spec/template/spec/affinity").isObject()).isTrue();
    }

    @Test
    void aJobThatNamesItsQueueKeepsIt() throws Exception {
        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "multislice-1slice");
        JsonNode stored = Reviews.apply(Reviews.patch(Webhook.review("/mutate-default-queue", Reviews.create(js))), js);
        assertThat(stored.at("/metadata/labels").get("kueue.x-k8s.io/queue-name").asText()).isEqualTo("multislice-queue");
        assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
    }

    @Test
    void theSameJobThroughTheOrdinaryEntryIsNotQueued() throws Exception {
        ObjectNode job = Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        JsonNode response = Webhook.review("/mutate", Reviews.create(job));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
    }

    @Test
    void otherKindsInAnOptedInNamespaceStayUnlabeled() throws Exception {
        ObjectNode deployment = Reviews.labeledDeployment();
        ((ObjectNode) deployment.get("metadata")).remove("labels");
        JsonNode response = Webhook.review("/mutate-default-queue", Reviews.create(deployment));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
    }
}
