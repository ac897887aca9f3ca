package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code POST /mutate} over HTTPS, in webhook mode with no cluster: hold and exclusive topology on the seeds. */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class MutateWebhookTest {
    static final String NODEPOOL = "cloud.google.com/gke-nodepool";
    static final String JOB_KEY = "jobset.sigs.k8s.io/job-key";

    @ParameterizedTest
    @ValueSource(strings = {"jobsets-multislice-autopilot.yaml", "jobsets-multislice-standard.yaml",
        "jobset-low-priority-autopilot.yaml", "jobset-low-priority-standard.yaml"})
    void seedJobSetsComeBackSuspendedWithTheAffinityAndTheirNodeSelector(String file) throws Exception {
        List<ObjectNode> jobSets = Reviews.load("/seeds/gke-multislice/" + file);
        assertThat(jobSets).isNotEmpty();
        for (ObjectNode submitted : jobSets) {
            JsonNode response = Webhook.review("/mutate", Reviews.create(submitted.deepCopy()));
            assertThat(response.path("allowed").asBoolean()).isTrue();
            JsonNode stored = Reviews.apply(Reviews.patch(response), submitted);

            assertThat(stored.path("spec").path("suspend").asBoolean()).isTrue();
            JsonNode replicated = stored.path("spec").path("replicatedJobs");
            for (int i = 0; i < replicated.size(); i++) {
                JsonNode pod = replicated.get(i).path("template").path("spec").path("template").path("spec");
                JsonNode before = submitted.path("spec").path("replicatedJobs").get(i)
                        .path("template").path("spec").path("template").path("spec");
                assertThat(pod.path("nodeSelector")).isEqualTo(before.path("nodeSelector"));
                assertThat(pod.path("nodeSelector").size()).isPositive();
                JsonNode together = single(pod.path("affinity").path("podAffinity")
                        .path("requiredDuringSchedulingIgnoredDuringExecution"));
                assertThat(together.path("topologyKey").asText()).isEqualTo(NODEPOOL);
                assertThat(together.path("matchLabelKeys")).containsExactly(Webhook.JSON.getNodeFactory().textNode(JOB_KEY));
                JsonNode apart = single(pod.path("affinity").path("podAntiAffinity")
                        .path("requiredDuringSchedulingIgnoredDuringExecution"));
                assertThat(apart.path("topologyKey").asText()).isEqualTo(NODEPOOL);
                assertThat(apart.path("mismatchLabelKeys")).containsExactly(Webhook.JSON.getNodeFactory().textNode(JOB_KEY));
                assertThat(apart.path("labelSelector").path("matchExpressions").get(0).path("key").asText())
                        .isEqualTo(JOB_KEY);
            }
            // nothing else changed
            assertThat(withoutHoldAndAffinity(stored)).isEqualTo(withoutHoldAndAffinity(submitted));
        }
    }

    @Test
    void aQueuedJobWithTopologyAnnotationsKueueRefusesIsRefusedOnCreateAndUpdate() throws Exception {
        ObjectNode job = Reviews.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: tas, namespace: default, uid: u1, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  parallelism: 4
                  template:
                    metadata:
                      annotations:
                        kueue.x-k8s.io/podset-required-topology: cloud.com/block
                        kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack
                        kueue.x-k8s.io/podset-slice-size: "20"
                    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                """);
        String message = "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]: Invalid value: \"20\":"
                + " must not be greater than pod set count 4";
        JsonNode created = Webhook.review("/mutate", Reviews.create(job.deepCopy()));
        assertThat(created.path("allowed").asBoolean()).isFalse();
        assertThat(created.path("status").path("message").asText()).isEqualTo(message);
        JsonNode updated = Webhook.review("/validate", Reviews.update(job.deepCopy(), job.deepCopy(), Reviews.USER));
        assertThat(updated.path("allowed").asBoolean()).isFalse();
        assertThat(updated.path("status").path("message").asText()).isEqualTo(message);

        ((ObjectNode) job.at("/spec/template/metadata/annotations")).put("kueue.x-k8s.io/podset-slice-size", "2");
        assertThat(Webhook.review("/mutate", Reviews.create(job.deepCopy())).path("allowed").asBoolean()).isTrue();
    }

    @Test
    void thePatchIsMinimalAndAddsOnlyWhatIsMissing() throws Exception {
        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-standard.yaml", "multislice-3slice");
        JsonNode patch = Reviews.patch(Webhook.review("/mutate", Reviews.create(js)));
        List<String> ops = new ArrayList<>();
        patch.forEach(op -> ops.add(op.path("op").asText() + " " + op.path("path").asText()));
        assertThat(ops).containsExactlyInAnyOrder("add /spec/suspend",
                "add /spec/replicatedJobs/0/template/spec/template/spec/affinity");
    }

    @Test
    void aJobKeepsItsAffinityTermsAndGainsTheExclusiveOnes() throws Exception {
        ObjectNode job = Reviews.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: train
                  namespace: team-a
                  labels: {kueue.x-k8s.io/queue-name: team-a-queue}
                  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: topology.kubernetes.io/zone}
                spec:
                  suspend: false
                  parallelism: 2
                  template:
                    spec:
                      restartPolicy: Never
                      nodeSelector: {disk: ssd}
                      affinity:
                        nodeAffinity:
                          requiredDuringSchedulingIgnoredDuringExecution:
                            nodeSelectorTerms:
                            - matchExpressions: [{key: gpu, operator: Exists}]
                        podAffinity:
                          requiredDuringSchedulingIgnoredDuringExecution:
                          - labelSelector: {matchLabels: {app: cache}}
                            topologyKey: kubernetes.io/hostname
                      containers:
                      - name: main
                        image: busybox
                        resources: {requests: {cpu: "1"}}
                """);
        JsonNode response = Webhook.review("/mutate", Reviews.create(job));
        JsonNode stored = Reviews.apply(Reviews.patch(response), job);

        assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
        JsonNode pod = stored.at("/spec/template/spec");
        assertThat(pod.path("nodeSelector")).isEqualTo(job.at("/spec/template/spec/nodeSelector"));
        assertThat(pod.at("/affinity/nodeAffinity")).isEqualTo(job.at("/spec/template/spec/affinity/nodeAffinity"));
        JsonNode together = pod.at("/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution");
        assertThat(together).hasSize(2);
        assertThat(together.get(0)).isEqualTo(
                job.at("/spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/0"));
        assertThat(together.get(1).path("topologyKey").asText()).isEqualTo("topology.kubernetes.io/zone");
        assertThat(together.get(1).path("matchLabelKeys").get(0).asText()).isEqualTo("batch.kubernetes.io/controller-uid");
        assertThat(single(pod.at("/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution"))
                .path("mismatchLabelKeys").get(0).asText()).isEqualTo("batch.kubernetes.io/controller-uid");
    }

    @Test
    void theAnnotationOnOneReplicatedJobAffectsOnlyThatOne() throws Exception {
        ObjectNode js = Reviews.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: mixed
                  labels: {kueue.x-k8s.io/queue-name: q}
                spec:
                  replicatedJobs:
                  - name: driver
                    template:
                      spec:
                        template:
                          spec:
                            containers: [{name: d, image: busybox}]
                  - name: workers
                    replicas: 2
                    template:
                      metadata:
                        annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool}
                      spec:
                        template:
                          spec:
                            containers: [{name: w, image: busybox}]
                """);
        JsonNode stored = Reviews.apply(Reviews.patch(Webhook.review("/mutate", Reviews.create(js))), js);
        assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
        assertThat(stored.at("/spec/replicatedJobs/0/template/spec/template/spec").has("affinity")).isFalse();
        assertThat(stored.at("/spec/replicatedJobs/1/template/spec/template/spec/affinity/podAffinity"
                + "/requiredDuringSchedulingIgnoredDuringExecution/0/topologyKey").asText()).isEqualTo(NODEPOOL);
    }

    @Test
    void anAlreadyHeldJobWithoutTopologyNeedsNoPatch() throws Exception {
        ObjectNode job = Reviews.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        ((ObjectNode) job.get("metadata")).putObject("labels").put("kueue.x-k8s.io/queue-name", "default");
        JsonNode response = Webhook.review("/mutate", Reviews.create(job));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
    }

    @Test
    void unlabeledObjectsPassUntouched() throws Exception {
        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "multislice-1slice");
        ((ObjectNode) js.get("metadata")).remove("labels");
        JsonNode response = Webhook.review("/mutate", Reviews.create(js));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
        assertThat(response.has("status")).isFalse();
    }

    @Test
    void unsupportedKindsAndUpdatesAreAllowedUntouched() throws Exception {
        // a kind no adapter handles (Sluice queues batch work, not services)
        ObjectNode deployment = Reviews.labeledDeployment();
        JsonNode response = Webhook.review("/mutate", Reviews.create(deployment));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();

        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "multislice-1slice");
        JsonNode update = Webhook.review("/mutate", Reviews.update(js, js.deepCopy(), Reviews.USER));
        assertThat(update.path("allowed").asBoolean()).isTrue();
        assertThat(update.has("patch")).isFalse();
    }

    @Test
    void aJobSetsChildJobIsNotHeldAgain() throws Exception {
        ObjectNode child = Reviews.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: multislice-1slice-slice-0
                  labels: {kueue.x-k8s.io/queue-name: multislice-queue}
                  ownerReferences:
                  - {apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: multislice-1slice, uid: u1, controller: true}
                spec:
                  template:
                    spec:
                      containers: [{name: c, image: busybox}]
                """);
        JsonNode response = Webhook.review("/mutate", Reviews.create(child));
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
    }

    @Test
    void aBlankTopologyKeyIsDeniedNamingTheField() throws Exception {
        ObjectNode js = Reviews.one("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "multislice-1slice");
        ((ObjectNode) js.at("/metadata/annotations")).put("alpha.jobset.sigs.k8s.io/exclusive-topology", " ");
        JsonNode response = Webhook.review("/mutate", Reviews.create(js));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(422);
        assertThat(response.at("/status/message").asText())
                .contains("metadata.annotations[alpha.jobset.sigs.k8s.io/exclusive-topology]")
                .contains("must name a node label");
    }

    private static JsonNode single(JsonNode terms) {
        assertThat(terms.isArray()).as("a list of terms: %s", terms).isTrue();
        assertThat(terms).hasSize(1);
        return terms.get(0);
    }

    private static JsonNode withoutHoldAndAffinity(JsonNode object) {
        ObjectNode copy = object.deepCopy();
        ((ObjectNode) copy.get("spec")).remove("suspend");
        for (JsonNode rj : (ArrayNode) copy.at("/spec/replicatedJobs")) {
            ((ObjectNode) rj.at("/template/spec/template/spec")).remove("affinity");
        }
        return copy;
    }
}
