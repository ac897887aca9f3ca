package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.conversion.KueueConversion;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** /validate checks v1beta2 queue objects with the same rules as v1beta1, naming the fields as written; and Cohorts. */
@QuarkusTest
@TestProfile(WebhookOnlyProfile.class)
class V1beta2ValidationWebhookTest {

    static final String CQ = """
            apiVersion: kueue.x-k8s.io/%s
            kind: ClusterQueue
            metadata: {name: cq}
            spec:
              %s: Not_A_Name
              flavorFungibility: {whenCanBorrow: %s}
              resourceGroups:
              - coveredResources: [cpu]
                flavors:
                - {name: default, resources: [{name: cpu, nominalQuota: -4}]}
            """;

    static String message(ObjectNode object) throws Exception {
        JsonNode response = Webhook.review("/validate", Reviews.create(object));
        return response.path("allowed").asBoolean() ? "allowed" : response.at("/status/message").asText();
    }

    @Test
    void theSameProblemsAreFoundInBothVersionsUnderEachVersionsNames() throws Exception {
        String v1 = message(Reviews.parse(CQ.formatted("v1beta1", "cohort", "Borrow")));
        String v2 = message(Reviews.parse(CQ.formatted("v1beta2", "cohortName", "MayStopSearch")));
        assertThat(v1).contains("spec.cohort: Invalid value").contains("nominalQuota: Invalid value: -4");
        assertThat(v2).contains("spec.cohortName: Invalid value").contains("nominalQuota: Invalid value: -4");
        assertThat(v2.replace("cohortName", "cohort")).isEqualTo(v1);
    }

    @Test
    void v1beta1sOldSpellingsAreNotV1beta2() throws Exception {
        assertThat(message(Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec: {flavorFungibility: {whenCanBorrow: Borrow}}
                """))).contains("spec.flavorFungibility.whenCanBorrow: Unsupported value: \"Borrow\"");
        assertThat(message(Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec: {flavorFungibility: {whenCanBorrow: MayStopSearch, whenCanPreempt: Preempt}}
                """))).isEqualTo("allowed");
    }

    private static ObjectNode fungibility(String version, String fungibility) {
        return Reviews.parse("""
                apiVersion: kueue.x-k8s.io/%s
                kind: ClusterQueue
                metadata: {name: cq}
                spec: {flavorFungibility: %s}
                """.formatted(version, fungibility));
    }

    /**
     * Kueue v0.19's preference (both versions), with its CEL rule on flavorFungibility: only when whenCanBorrow and
     * whenCanPreempt are both TryNextFlavor, the schema's defaults counted (whenCanBorrow MayStopSearch,
     * whenCanPreempt TryNextFlavor).
     */
    @Test
    void aPreferenceNeedsBothPoliciesTryNextFlavor() throws Exception {
        String refused = "ClusterQueue.kueue.x-k8s.io \"cq\" is invalid: spec.flavorFungibility: Invalid value:"
                + " \"object\": preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor";
        for (String version : new String[] {"v1beta1", "v1beta2"}) {
            for (String preference : new String[] {"BorrowingOverPreemption", "PreemptionOverBorrowing"}) {
                assertThat(message(fungibility(version, "{whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor,"
                        + " preference: " + preference + "}"))).as(version).isEqualTo("allowed");
                assertThat(message(fungibility(version, "{whenCanBorrow: TryNextFlavor, preference: " + preference
                        + "}"))).as(version).isEqualTo("allowed");
                assertThat(message(fungibility(version, "{preference: " + preference + "}"))).as(version)
                        .isEqualTo(refused);
                assertThat(message(fungibility(version, "{whenCanBorrow: TryNextFlavor, whenCanPreempt: MayStopSearch,"
                        + " preference: " + preference + "}"))).as(version).isEqualTo(refused);
            }
            assertThat(message(fungibility(version, "{whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor,"
                    + " preference: Cheapest}"))).as(version).contains("spec.flavorFungibility.preference: Unsupported"
                    + " value: \"Cheapest\": supported values: \"BorrowingOverPreemption\", \"PreemptionOverBorrowing\"");
        }
        // v1beta1's older spellings are not TryNextFlavor either
        assertThat(message(fungibility("v1beta1", "{whenCanBorrow: Borrow, whenCanPreempt: TryNextFlavor,"
                + " preference: BorrowingOverPreemption}"))).isEqualTo(refused);
        assertThat(message(fungibility("v1beta1", "{whenCanBorrow: TryNextFlavor, whenCanPreempt: Preempt,"
                + " preference: BorrowingOverPreemption}"))).isEqualTo(refused);
    }

    @Test
    void everySeedIsAllowedInItsV1beta2Form() throws Exception {
        for (String resource : new String[] { "/seeds/gke-multislice/kueue.yaml", "/seeds/gke-multislice/kueue-preemption.yaml" }) {
            java.util.List<JsonNode> docs = new java.util.ArrayList<>();
            try (var in = getClass().getResourceAsStream(resource)) {
                new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                        .readerFor(JsonNode.class).readValues(in).forEachRemaining(n -> docs.add((JsonNode) n));
            }
            assertThat(docs).isNotEmpty();
            for (JsonNode doc : docs) {
                ObjectNode v2 = KueueConversion.convert(doc, KueueConversion.V1BETA2);
                assertThat(message(v2)).as("%s in v1beta2", doc.path("kind")).isEqualTo("allowed");
            }
        }
    }

    @Test
    void cohortsAreChecked() throws Exception {
        assertThat(message(Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: team}
                spec:
                  parentName: root
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - {name: default, resources: [{name: cpu, nominalQuota: 10, borrowingLimit: 2}]}
                """))).isEqualTo("allowed");
        String own = message(Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: team}
                spec: {parentName: team}
                """));
        assertThat(own).startsWith("Cohort.kueue.x-k8s.io \"team\" is invalid").contains("spec.parentName")
                .contains("a Cohort cannot be its own parent");
        assertThat(message(Reviews.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Cohort
                metadata: {name: root}
                spec:
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - {name: default, resources: [{name: cpu, nominalQuota: 10, borrowingLimit: 2}]}
                """))).contains("borrowingLimit").contains("must be nil");
    }
}
