package dev.sluice.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.19.2's clusterqueue_webhook_test.go cases about admission checks (TestValidateClusterQueue and
 * TestValidateClusterQueueUpdate, named after them), with the message Sluice's validating webhook gives. Kueue's
 * "... rejects unrelated updates when the feature gate is enabled" has no Sluice form: Sluice has the gate's default
 * (RejectUpdatesToCQWithInvalidOnFlavors off) only.
 */
class AdmissionCheckStrategyRulesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String GHOST_NOT_IN_ALPHA = "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]:"
            + " Unsupported value: \"ghost\": supported values: \"alpha\"";

    /** A v1beta2 ClusterQueue with one flavor's cpu quota (if any) and admission check rules "name:flavor,...". */
    private static JsonNode cq(String flavor, String queueingStrategy, String... rules) throws Exception {
        StringBuilder y = new StringBuilder("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
                + "metadata: {name: cluster-queue}\nspec:\n  queueingStrategy: " + queueingStrategy + "\n");
        if (flavor != null) {
            y.append("  resourceGroups: [{coveredResources: [cpu], flavors: [{name: ").append(flavor)
                    .append(", resources: [{name: cpu, nominalQuota: 1}]}]}]\n");
        }
        if (rules.length > 0) {
            y.append("  admissionChecksStrategy:\n    admissionChecks:\n");
            for (String rule : rules) {
                String[] parts = rule.split(":", 2);
                y.append("    - {name: ").append(parts[0]);
                if (parts.length > 1) {
                    y.append(", onFlavors: [").append(parts[1]).append("]");
                }
                y.append("}\n");
            }
        }
        return YAML.readTree(y.toString());
    }

    private static java.util.List<String> create(JsonNode cq) {
        return QueueObjectValidation.errors("ClusterQueue", cq, null).all();
    }

    private static java.util.List<String> update(JsonNode old, JsonNode cq) {
        return QueueObjectValidation.errors("ClusterQueue", cq, old).all();
    }

    // TestValidateClusterQueue

    @Test
    void admissionChecksDefined() throws Exception {
        assertThat(create(cq(null, "BestEffortFIFO", "ac1"))).isEmpty();
    }

    @Test
    void admissionCheckStrategyDefinedWithAValidFlavor() throws Exception {
        assertThat(create(cq("flavor1", "BestEffortFIFO", "ac1:flavor1"))).isEmpty();
    }

    @Test
    void admissionCheckStrategyRefersToAFlavorThatIsNotInQuota() throws Exception {
        assertThat(create(cq(null, "BestEffortFIFO", "ac1:flavor1"))).containsExactly(
                "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]: Unsupported value: \"flavor1\"");
    }

    // TestValidateClusterQueueUpdate

    @Test
    void legacyClusterQueueWithInvalidOnFlavorsAllowsUnrelatedUpdatesWhenTheFeatureGateIsDisabled() throws Exception {
        assertThat(update(cq("alpha", "StrictFIFO", "ac1:ghost"), cq("alpha", "BestEffortFIFO", "ac1:ghost"))).isEmpty();
    }

    @Test
    void validAdmissionCheckStrategyCanBeAddedWhenTheOldClusterQueueHasNoStrategy() throws Exception {
        assertThat(update(cq("alpha", "BestEffortFIFO"), cq("alpha", "BestEffortFIFO", "ac1:alpha"))).isEmpty();
    }

    @Test
    void invalidAdmissionCheckStrategyIsRejectedWhenTheOldClusterQueueHasNoStrategy() throws Exception {
        assertThat(update(cq("alpha", "BestEffortFIFO"), cq("alpha", "BestEffortFIFO", "ac1:ghost")))
                .containsExactly(GHOST_NOT_IN_ALPHA);
    }

    @Test
    void resourceGroupFlavorChangeRevalidatesAdmissionCheckOnFlavorsForLegacyClusterQueue() throws Exception {
        assertThat(update(cq("alpha", "BestEffortFIFO", "ac1:ghost"), cq("beta", "BestEffortFIFO", "ac1:ghost")))
                .containsExactly(GHOST_NOT_IN_ALPHA.replace("alpha", "beta"));
    }

    @Test
    void changingInvalidOnFlavorsForALegacyClusterQueueRevalidatesTheNewRef() throws Exception {
        assertThat(update(cq("alpha", "BestEffortFIFO", "ac1:ghost"), cq("alpha", "BestEffortFIFO", "ac1:phantom")))
                .containsExactly(GHOST_NOT_IN_ALPHA.replace("ghost", "phantom"));
    }

    @Test
    void changingAdmissionCheckNameRevalidatesOnFlavorsForTheNewRule() throws Exception {
        assertThat(update(cq("alpha", "BestEffortFIFO", "ac1:ghost"), cq("alpha", "BestEffortFIFO", "ac2:ghost")))
                .containsExactly(GHOST_NOT_IN_ALPHA);
    }

    // Kueue's CRD: a list keyed by name

    @Test
    void aCheckNamedTwiceIsADuplicateAsTheApiServerSaysIt() throws Exception {
        assertThat(create(cq("alpha", "BestEffortFIFO", "prov:alpha", "prov"))).containsExactly(
                "spec.admissionChecksStrategy.admissionChecks[1]: Duplicate value: map[string]interface {}{\"name\":\"prov\"}");
    }

    @Test
    void aV1beta1ListOfChecksReplacesTheStrategyWhichIsThenNotChecked() throws Exception {
        JsonNode v1beta1 = YAML.readTree("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cluster-queue}
                spec:
                  admissionChecks: [ac1]
                  admissionChecksStrategy: {admissionChecks: [{name: ac1, onFlavors: [ghost]}]}
                """);
        assertThat(create(v1beta1)).isEmpty();
        ((com.fasterxml.jackson.databind.node.ObjectNode) v1beta1.get("spec")).remove("admissionChecks");
        assertThat(create(v1beta1)).containsExactly(
                "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]: Unsupported value: \"ghost\"");
    }
}
