package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code POST /validate} for Kueue's queue objects: each rule, with the message it gives. */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class QueueObjectWebhookTest {

    @ParameterizedTest
    @ValueSource(strings = {"kueue.yaml", "kueue-preemption.yaml"})
    void theSeedQueueObjectsAreValid(String file) throws Exception {
        for (ObjectNode object : Reviews.load("/seeds/gke-multislice/" + file)) {
            JsonNode response = Webhook.review("/validate", Reviews.create(object));
            assertThat(response.path("allowed").asBoolean()).as("%s: %s", object.path("kind"), response).isTrue();
        }
    }

    private static ObjectNode clusterQueue(String spec) {
        return Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                """ + spec.indent(2));
    }

    static Stream<Arguments> invalidClusterQueues() {
        String cpu = """
                resourceGroups:
                - coveredResources: [cpu]
                  flavors:
                  - name: default
                    resources:
                    - {name: cpu, %s}
                """;
        return Stream.of(
                Arguments.of(cpu.formatted("nominalQuota: -1"),
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: -1: must be"
                                + " greater than or equal to 0"),
                Arguments.of(cpu.formatted("nominalQuota: '2 cores'"),
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: \"2 cores\":"
                                + " quantities must match the regular expression"),
                Arguments.of(cpu.formatted("nominalQuota: 4, borrowingLimit: '-2'"),
                        "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit: Invalid value: \"-2\": must be"
                                + " greater than or equal to 0"),
                Arguments.of(cpu.formatted("nominalQuota: 4, borrowingLimit: 2"),
                        "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit: Invalid value: 2: must be nil"
                                + " when cohort is empty"),
                Arguments.of(cpu.formatted("nominalQuota: 4, lendingLimit: 2"),
                        "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: 2: must be nil"
                                + " when cohort is empty"),
                Arguments.of("cohort: team\n" + cpu.formatted("nominalQuota: 4, lendingLimit: 5"),
                        "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: 5: must be less"
                                + " than or equal to nominalQuota (4)"),
                Arguments.of(cpu.formatted("nominalQuota: 4") + """
                        - coveredResources: [cpu]
                          flavors:
                          - name: other
                            resources: [{name: cpu, nominalQuota: 1}]
                        """,
                        "spec.resourceGroups[1].coveredResources[0]: Duplicate value: \"cpu\": a resource can be"
                                + " covered by only one resource group"),
                Arguments.of("""
                        resourceGroups:
                        - coveredResources: [cpu, memory]
                          flavors:
                          - name: default
                            resources: [{name: cpu, nominalQuota: 4}]
                        """,
                        "spec.resourceGroups[0].flavors[0].resources: Invalid value: \"1 resources\": must have the"
                                + " same number of resources as the coveredResources [cpu, memory], in the same order"),
                Arguments.of("""
                        resourceGroups:
                        - coveredResources: [cpu, memory]
                          flavors:
                          - name: default
                            resources: [{name: memory, nominalQuota: 4}, {name: cpu, nominalQuota: 4}]
                        """,
                        "spec.resourceGroups[0].flavors[0].resources[0].name: Invalid value: \"memory\": must match"
                                + " the name in coveredResources (\"cpu\")"),
                Arguments.of("""
                        resourceGroups:
                        - coveredResources: [cpu]
                          flavors:
                          - {name: default, resources: [{name: cpu, nominalQuota: 4}]}
                          - {name: default, resources: [{name: cpu, nominalQuota: 4}]}
                        """,
                        "spec.resourceGroups[0].flavors[1].name: Duplicate value: \"default\": a flavor can appear"
                                + " only once in a ClusterQueue"),
                Arguments.of("""
                        resourceGroups:
                        - coveredResources: [cpu]
                          flavors:
                          - {name: Default_Flavor, resources: [{name: cpu, nominalQuota: 4}]}
                        """,
                        "spec.resourceGroups[0].flavors[0].name: Invalid value: \"Default_Flavor\": a lowercase RFC"
                                + " 1123 subdomain"),
                Arguments.of("""
                        resourceGroups:
                        - coveredResources: [cpu]
                          flavors:
                          - {name: default, resources: [{name: cpu}]}
                        """,
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Required value"),
                Arguments.of("""
                        resourceGroups:
                        - coveredResources: [cpu]
                          flavors: []
                        """,
                        "spec.resourceGroups[0].flavors: Required value"),
                Arguments.of("queueingStrategy: FIFO",
                        "spec.queueingStrategy: Unsupported value: \"FIFO\": supported values: \"StrictFIFO\","
                                + " \"BestEffortFIFO\""),
                Arguments.of("stopPolicy: Drain",
                        "spec.stopPolicy: Unsupported value: \"Drain\": supported values: \"None\", \"Hold\","
                                + " \"HoldAndDrain\""),
                Arguments.of("preemption: {withinClusterQueue: Always}",
                        "spec.preemption.withinClusterQueue: Unsupported value: \"Always\""),
                Arguments.of("preemption: {borrowWithinCohort: {policy: LowerPriority}}",
                        "spec.preemption: Invalid value: {\"borrowWithinCohort\":{\"policy\":\"LowerPriority\"}}:"
                                + " reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"),
                Arguments.of("flavorFungibility: {whenCanBorrow: Never}",
                        "spec.flavorFungibility.whenCanBorrow: Unsupported value: \"Never\": supported values:"
                                + " \"Borrow\", \"MayStopSearch\", \"TryNextFlavor\""),
                Arguments.of("fairSharing: {weight: 1n}",
                        "spec.fairSharing: Invalid value: \"1n\": When not 0, weight must be > 10e-9"),
                Arguments.of("fairSharing: {weight: '-1'}",
                        "spec.fairSharing: Invalid value: \"-1\": must be greater than or equal to 0"),
                Arguments.of("cohort: Team_A",
                        "spec.cohort: Invalid value: \"Team_A\": a lowercase RFC 1123 subdomain"),
                Arguments.of("namespaceSelector: {matchExpressions: [{key: team, operator: In}]}",
                        "spec.namespaceSelector.matchExpressions[0].values: Required value: must be specified when"
                                + " `operator` is 'In' or 'NotIn'"),
                Arguments.of("namespaceSelector: {matchExpressions: [{key: team, operator: Equals, values: [a]}]}",
                        "spec.namespaceSelector.matchExpressions[0].operator: Unsupported value: \"Equals\""));
    }

    @ParameterizedTest
    @MethodSource("invalidClusterQueues")
    void anInvalidClusterQueueIsDeniedNamingTheField(String spec, String message) throws Exception {
        JsonNode response = Webhook.review("/validate", Reviews.create(clusterQueue(spec)));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(422);
        assertThat(response.at("/status/reason").asText()).isEqualTo("Invalid");
        assertThat(response.at("/status/message").asText())
                .startsWith("ClusterQueue.kueue.x-k8s.io \"cq\" is invalid: ").contains(message);
    }

    @Test
    void aCohortAllowsLimitsAndAMatchingPolicyCombination() throws Exception {
        ObjectNode cq = clusterQueue("""
                cohort: team
                queueingStrategy: StrictFIFO
                preemption: {reclaimWithinCohort: Any, borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}}
                resourceGroups:
                - coveredResources: [cpu, memory]
                  flavors:
                  - name: default
                    resources:
                    - {name: cpu, nominalQuota: 500m, borrowingLimit: "2", lendingLimit: 250m}
                    - {name: memory, nominalQuota: 1Gi, lendingLimit: 1Gi}
                - coveredResources: [nvidia.com/gpu]
                  flavors:
                  - {name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}
                """);
        JsonNode response = Webhook.review("/validate", Reviews.create(cq));
        assertThat(response.path("allowed").asBoolean()).as("%s", response).isTrue();
    }

    @Test
    void severalProblemsAreListedTogether() throws Exception {
        JsonNode response = Webhook.review("/validate", Reviews.create(clusterQueue("""
                queueingStrategy: FIFO
                resourceGroups:
                - coveredResources: [cpu]
                  flavors:
                  - {name: default, resources: [{name: cpu, nominalQuota: -4}]}
                """)));
        String message = response.at("/status/message").asText();
        assertThat(message).startsWith("ClusterQueue.kueue.x-k8s.io \"cq\" is invalid: [").endsWith("]")
                .contains("nominalQuota: Invalid value: -4").contains("spec.queueingStrategy: Unsupported value");
    }

    private static ObjectNode localQueue(String clusterQueue) {
        return Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: multislice-queue, namespace: default}
                spec: {clusterQueue: %s}
                """.formatted(clusterQueue));
    }

    @Test
    void aLocalQueueKeepsItsClusterQueue() throws Exception {
        ObjectNode old = localQueue("cluster-queue");
        JsonNode same = Webhook.review("/validate", Reviews.update(old.deepCopy(), old, Reviews.USER));
        assertThat(same.path("allowed").asBoolean()).isTrue();

        JsonNode response = Webhook.review("/validate", Reviews.update(localQueue("other-queue"), old, Reviews.USER));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/message").asText()).isEqualTo("LocalQueue.kueue.x-k8s.io \"multislice-queue\""
                + " is invalid: spec.clusterQueue: Invalid value: \"other-queue\": field is immutable (it is"
                + " \"cluster-queue\"); to move the queue to another ClusterQueue, delete the LocalQueue and create it"
                + " again");
    }

    @Test
    void aLocalQueueNamesAClusterQueue() throws Exception {
        ObjectNode lq = localQueue("x");
        ((ObjectNode) lq.get("spec")).remove("clusterQueue");
        JsonNode response = Webhook.review("/validate", Reviews.create(lq));
        assertThat(response.at("/status/message").asText())
                .contains("spec.clusterQueue: Required value: name the ClusterQueue this LocalQueue feeds");
    }

    private static ObjectNode flavor(String spec) {
        return Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: vlp-24}
                spec:
                """ + spec.indent(2));
    }

    static Stream<Arguments> invalidFlavors() {
        return Stream.of(
                Arguments.of("nodeLabels: {a: '1', b: '2', c: '3', d: '4', e: '5', f: '6', g: '7', h: '8', i: '9'}",
                        "spec.nodeLabels: Too many: 9: must have at most 8 items"),
                Arguments.of("nodeLabels: {'bad key!': x}",
                        "spec.nodeLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric"),
                Arguments.of("nodeLabels: {pool: 'not valid!'}",
                        "spec.nodeLabels: Invalid value: \"not valid!\": a valid label must be an empty string"),
                Arguments.of("nodeTaints: [{key: tpu, value: present, effect: NoSchedule},"
                        + " {key: tpu, value: other, effect: NoSchedule}]",
                        "spec.nodeTaints[1]: Duplicate value: \"tpu:NoSchedule\": taints must be unique by key and"
                                + " effect pair"),
                Arguments.of("nodeTaints: [{key: tpu, effect: Sometimes}]",
                        "spec.nodeTaints[0].effect: Unsupported value: \"Sometimes\": supported values:"
                                + " \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""),
                Arguments.of("nodeTaints: [{key: tpu}]", "spec.nodeTaints[0].effect: Required value"),
                Arguments.of("tolerations: [{operator: Equal, value: x}]",
                        "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key`"
                                + " is empty"),
                Arguments.of("tolerations: [{key: tpu, operator: Exists, value: x}]",
                        "spec.tolerations[0].value: Invalid value: \"x\": value must be empty when `operator` is"
                                + " 'Exists'"),
                Arguments.of("tolerations: [{key: tpu, operator: Matches}]",
                        "spec.tolerations[0].operator: Unsupported value: \"Matches\""),
                Arguments.of("tolerations: [{key: tpu, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]",
                        "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when"
                                + " `tolerationSeconds` is set"));
    }

    @ParameterizedTest
    @MethodSource("invalidFlavors")
    void anInvalidResourceFlavorIsDeniedNamingTheField(String spec, String message) throws Exception {
        JsonNode response = Webhook.review("/validate", Reviews.create(flavor(spec)));
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/message").asText())
                .startsWith("ResourceFlavor.kueue.x-k8s.io \"vlp-24\" is invalid: ").contains(message);
    }

    @Test
    void aFlavorWithTaintsAndTolerationsIsValid() throws Exception {
        JsonNode response = Webhook.review("/validate", Reviews.create(flavor("""
                nodeLabels: {cloud.google.com/gke-tpu-topology: 2x4}
                nodeTaints: [{key: google.com/tpu, value: present, effect: NoSchedule}]
                tolerations:
                - {key: google.com/tpu, operator: Exists, effect: NoSchedule}
                - {operator: Exists}
                - {key: spot, operator: Equal, value: "true", effect: NoExecute, tolerationSeconds: 30}
                """)));
        assertThat(response.path("allowed").asBoolean()).as("%s", response).isTrue();
    }

    @Test
    void aWorkloadPriorityClassHasAnIntegerValue() throws Exception {
        ObjectNode wpc = Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: high}
                value: 10000
                description: production training
                """);
        assertThat(Webhook.review("/validate", Reviews.create(wpc)).path("allowed").asBoolean()).isTrue();

        wpc.put("value", "high");
        assertThat(Webhook.review("/validate", Reviews.create(wpc)).at("/status/message").asText())
                .isEqualTo("WorkloadPriorityClass.kueue.x-k8s.io \"high\" is invalid: value: Invalid value: \"high\":"
                        + " must be an integer between -2147483648 and 2147483647");
        wpc.remove("value");
        assertThat(Webhook.review("/validate", Reviews.create(wpc)).at("/status/message").asText())
                .contains("value: Required value");
    }
}
