package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * POST /convert over HTTPS on the webhook port, in mode webhook with no cluster: ConversionReviews as the API server
 * sends them, both directions, several objects, and malformed ones (always a review with a Failure result, never 500).
 */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class ConversionWebhookTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static final String V1_OBJECTS = """
            - apiVersion: kueue.x-k8s.io/v1beta1
              kind: ClusterQueue
              metadata: {name: cluster-queue, uid: 6b0c, resourceVersion: "12"}
              spec:
                cohort: all
                flavorFungibility: {whenCanBorrow: Borrow}
                resourceGroups: [{coveredResources: [google.com/tpu], flavors: [{name: vlp-24, resources: [{name: google.com/tpu, nominalQuota: 24}]}]}]
            - apiVersion: kueue.x-k8s.io/v1beta1
              kind: LocalQueue
              metadata: {name: multislice-queue, namespace: default}
              spec: {clusterQueue: cluster-queue}
              status: {flavorUsage: [{name: vlp-24, resources: [{name: google.com/tpu, total: "8"}]}]}
            - apiVersion: kueue.x-k8s.io/v1beta1
              kind: Workload
              metadata: {name: jobset-multislice-1slice-2530a, namespace: default}
              spec:
                queueName: multislice-queue
                priorityClassName: low-priority
                priorityClassSource: scheduling.k8s.io/priorityclass
                priority: 100
                podSets: [{name: slice, count: 2, template: {spec: {containers: [{name: c, image: busybox}]}}}]
            - apiVersion: kueue.x-k8s.io/v1beta1
              kind: Cohort
              metadata: {name: all}
              spec: {parentName: root, fairSharing: {weight: "2"}}
            """;

    static JsonNode review(String uid, String desired, JsonNode objects) {
        ObjectNode review = Webhook.JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1")
                .put("kind", "ConversionReview");
        review.putObject("request").put("uid", uid).put("desiredAPIVersion", desired).set("objects", objects);
        return review;
    }

    static JsonNode convert(JsonNode review) throws Exception {
        return answer(Webhook.post("/convert", Webhook.JSON.writeValueAsBytes(review)));
    }

    static JsonNode answer(HttpResponse<String> http) throws Exception {
        assertThat(http.statusCode()).as(http.body()).isEqualTo(200);
        JsonNode body = Webhook.JSON.readTree(http.body());
        assertThat(body.path("apiVersion").asText()).isEqualTo("apiextensions.k8s.io/v1");
        assertThat(body.path("kind").asText()).isEqualTo("ConversionReview");
        return body.path("response");
    }

    @Test
    void v1beta1ObjectsComeBackAsV1beta2InOrderUnderTheRequestsUid() throws Exception {
        JsonNode objects = YAML.readTree(V1_OBJECTS);
        JsonNode response = convert(review("705ab4f5-6393-11e8-b7cc-42010a800002", "kueue.x-k8s.io/v1beta2", objects));
        assertThat(response.path("uid").asText()).isEqualTo("705ab4f5-6393-11e8-b7cc-42010a800002");
        assertThat(response.path("result").path("status").asText()).isEqualTo("Success");
        JsonNode converted = response.path("convertedObjects");
        assertThat(converted).hasSize(4);
        assertThat(converted).extracting(o -> o.path("kind").asText() + "/" + o.at("/metadata/name").asText())
                .containsExactly("ClusterQueue/cluster-queue", "LocalQueue/multislice-queue",
                        "Workload/jobset-multislice-1slice-2530a", "Cohort/all");
        assertThat(converted).allSatisfy(o -> assertThat(o.path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta2"));
        assertThat(converted.at("/0/spec/cohortName").asText()).isEqualTo("all");
        assertThat(converted.at("/0/spec/flavorFungibility/whenCanBorrow").asText()).isEqualTo("MayStopSearch");
        assertThat(converted.at("/0/metadata/uid").asText()).as("metadata other than annotations is kept").isEqualTo("6b0c");
        assertThat(converted.at("/0/metadata/resourceVersion").asText()).isEqualTo("12");
        assertThat(converted.at("/1/status/flavorsUsage/0/name").asText()).isEqualTo("vlp-24");
        assertThat(converted.at("/2/spec/priorityClassRef/kind").asText()).isEqualTo("PriorityClass");
        assertThat(converted.at("/3/spec/parentName").asText()).isEqualTo("root");

        // and back: the same objects as sent
        JsonNode back = convert(review("back", "kueue.x-k8s.io/v1beta1", converted));
        assertThat(back.path("uid").asText()).isEqualTo("back");
        assertThat(back.path("convertedObjects")).isEqualTo(objects);
    }

    @Test
    void anObjectThatCannotBeConvertedFailsTheReviewNamingObjectAndField() throws Exception {
        ArrayNode objects = (ArrayNode) YAML.readTree(V1_OBJECTS);
        ((ObjectNode) objects.get(0).get("spec")).putArray("admissionChecks").add("ok").add(3);
        JsonNode response = convert(review("u1", "kueue.x-k8s.io/v1beta2", objects));
        assertThat(response.path("uid").asText()).isEqualTo("u1");
        assertThat(response.path("result").path("status").asText()).isEqualTo("Failure");
        assertThat(response.path("result").path("message").asText()).isEqualTo("request.objects[0]: ClusterQueue "
                + "cluster-queue: spec.admissionChecks[1]: must be the name of an AdmissionCheck (a string), not 3");
        assertThat(response.path("convertedObjects")).isEmpty();
    }

    @Test
    void unknownVersionsAndKindsAreFailures() throws Exception {
        JsonNode objects = YAML.readTree(V1_OBJECTS);
        assertThat(convert(review("u2", "kueue.x-k8s.io/v1alpha1", objects)).path("result").path("message").asText())
                .isEqualTo("request.desiredAPIVersion: \"kueue.x-k8s.io/v1alpha1\" is not one Sluice converts to"
                        + " (kueue.x-k8s.io/v1beta1 or kueue.x-k8s.io/v1beta2)");
        // every kind of Kueue v0.19.2's group is converted now: an unknown one is made up
        JsonNode unknown = YAML.readTree("[{apiVersion: kueue.x-k8s.io/v1beta1, kind: Widget, metadata: {name: t}}]");
        assertThat(convert(review("u3", "kueue.x-k8s.io/v1beta2", unknown)).path("result").path("message").asText())
                .startsWith("request.objects[0]: Widget t: kind: \"Widget\" is not a kind Sluice converts");
        JsonNode old = YAML.readTree("[{apiVersion: kueue.x-k8s.io/v1alpha1, kind: Cohort, metadata: {name: c}}]");
        assertThat(convert(review("u4", "kueue.x-k8s.io/v1beta2", old)).path("result").path("message").asText())
                .startsWith("request.objects[0]: Cohort c: apiVersion: \"kueue.x-k8s.io/v1alpha1\" is not one Sluice converts");
    }

    @Test
    void aBodyThatIsNotAReviewIsAFailureNotAnError() throws Exception {
        for (String body : List.of("not json", "[]", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
                "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\"}",
                "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"u5\","
                        + "\"desiredAPIVersion\":\"kueue.x-k8s.io/v1beta2\",\"objects\":{}}}",
                "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"u6\","
                        + "\"desiredAPIVersion\":\"kueue.x-k8s.io/v1beta2\",\"objects\":[7]}}")) {
            JsonNode response = answer(Webhook.post("/convert", body.getBytes(StandardCharsets.UTF_8)));
            assertThat(response.path("result").path("status").asText()).as(body).isEqualTo("Failure");
            assertThat(response.path("result").path("message").asText()).as(body).isNotBlank();
        }
        JsonNode notJson = answer(Webhook.post("/convert", "not json".getBytes(StandardCharsets.UTF_8)));
        assertThat(notJson.path("result").path("message").asText()).startsWith("the body is not JSON");
        JsonNode objectsNotAList = answer(Webhook.post("/convert", ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
                + "\"ConversionReview\",\"request\":{\"uid\":\"u5\",\"desiredAPIVersion\":\"kueue.x-k8s.io/v1beta2\","
                + "\"objects\":{}}}").getBytes(StandardCharsets.UTF_8)));
        assertThat(objectsNotAList.path("uid").asText()).isEqualTo("u5");
        assertThat(objectsNotAList.path("result").path("message").asText()).isEqualTo("request.objects: must be a list of objects");
    }

    @Test
    void anEmptyListConvertsToAnEmptyList() throws Exception {
        JsonNode response = convert(review("u7", "kueue.x-k8s.io/v1beta1", Webhook.JSON.createArrayNode()));
        assertThat(response.path("result").path("status").asText()).isEqualTo("Success");
        assertThat(response.path("convertedObjects")).isEmpty();
    }
}
