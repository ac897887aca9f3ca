package dev.sluice.api.v1beta1;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.conversion.KueueConversion;
import dev.sluice.api.v1beta2.KueueDefaults;
import dev.sluice.api.v1beta2.QueueingStrategy;
import dev.sluice.api.v1beta2.ReclaimWithinCohort;
import dev.sluice.api.v1beta2.StopPolicy;
import dev.sluice.api.v1beta2.WhenCanBorrow;
import dev.sluice.api.v1beta2.WhenCanPreempt;
import dev.sluice.api.v1beta2.WithinClusterQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ApiRoundTripTest {

    /** Strict: a field the model does not know fails the read instead of being dropped. */
    private static final ObjectMapper STRICT = Serialization.jsonMapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "ResourceFlavor", ResourceFlavor.class,
            "ClusterQueue", ClusterQueue.class,
            "LocalQueue", LocalQueue.class,
            "Workload", Workload.class,
            "WorkloadPriorityClass", WorkloadPriorityClass.class);

    @ParameterizedTest
    @ValueSource(strings = { "/seeds/gke-multislice/kueue.yaml", "/seeds/gke-multislice/kueue-preemption.yaml" })
    void seedDocumentsRoundTripUnchanged(String resource) throws Exception {
        List<JsonNode> documents = SeedDocuments.read(resource);
        assertThat(documents).hasSize(3);
        for (JsonNode original : documents) {
            Class<? extends HasMetadata> type = KINDS.get(original.get("kind").asText());
            assertThat(type).as("kind %s", original.get("kind")).isNotNull();
            HasMetadata model = STRICT.treeToValue(original, type);
            JsonNode written = STRICT.valueToTree(model);
            assertSameDocument(original, written, "");
        }
    }

    @Test
    void kueueDefaultsApplyToTheTutorialClusterQueue() throws Exception {
        JsonNode cqDocument = SeedDocuments.read("/seeds/gke-multislice/kueue-preemption.yaml").get(1);
        var cq = hub(cqDocument, dev.sluice.api.v1beta2.ClusterQueue.class);
        assertThat(cq.getSpec().getQueueingStrategy()).as("not written, so not set before defaulting").isNull();

        KueueDefaults.apply(cq.getSpec());

        assertThat(cq.getSpec().getQueueingStrategy()).isEqualTo(QueueingStrategy.BestEffortFIFO);
        assertThat(cq.getSpec().getStopPolicy()).isEqualTo(StopPolicy.None);
        // Kueue v0.19's v1beta1 schema defaults MayStopSearch (Borrow, its older name, was the default before)
        assertThat(cq.getSpec().getFlavorFungibility().getWhenCanBorrow()).isEqualTo(WhenCanBorrow.MayStopSearch);
        assertThat(cq.getSpec().getFlavorFungibility().getWhenCanPreempt()).isEqualTo(WhenCanPreempt.TryNextFlavor);
        // what the seed wrote is kept
        assertThat(cq.getSpec().getPreemption().getReclaimWithinCohort()).isEqualTo(ReclaimWithinCohort.Any);
        assertThat(cq.getSpec().getPreemption().getWithinClusterQueue()).isEqualTo(WithinClusterQueue.LowerPriority);
        assertThat(cq.getSpec().getNamespaceSelector()).as("{} selects every namespace and stays {}").isNotNull();
        assertThat(cq.getSpec().getResourceGroups().get(0).getFlavors().get(0).getResources().get(0).getNominalQuota())
                .isEqualTo(new Quantity("24"));
    }

    @Test
    void preemptionDefaultsToNeverAndLocalQueueToNoStopPolicy() throws Exception {
        List<JsonNode> documents = SeedDocuments.read("/seeds/gke-multislice/kueue.yaml");
        var cq = hub(documents.get(1), dev.sluice.api.v1beta2.ClusterQueue.class);
        KueueDefaults.apply(cq.getSpec());
        assertThat(cq.getSpec().getPreemption().getReclaimWithinCohort()).isEqualTo(ReclaimWithinCohort.Never);
        assertThat(cq.getSpec().getPreemption().getWithinClusterQueue()).isEqualTo(WithinClusterQueue.Never);
        assertThat(cq.getSpec().getPreemption().getBorrowWithinCohort()).isNull();

        var lq = hub(documents.get(2), dev.sluice.api.v1beta2.LocalQueue.class);
        assertThat(lq.getSpec().getClusterQueue()).isEqualTo("cluster-queue");
        assertThat(KueueDefaults.apply(lq.getSpec()).getStopPolicy()).isEqualTo(StopPolicy.None);
    }

    @Test
    void workloadPodSetsDefaultToOnePodNamedMain() throws Exception {
        var workload = hub(STRICT.readTree("""
                {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload",
                 "metadata": {"name": "w", "namespace": "default"},
                 "spec": {"queueName": "q", "podSets": [{"template": {"spec": {"containers": [{"name": "c"}]}}}]}}
                """), dev.sluice.api.v1beta2.Workload.class);
        KueueDefaults.apply(workload.getSpec());
        assertThat(workload.getSpec().getPodSets().get(0).getName()).isEqualTo("main");
        assertThat(workload.getSpec().getPodSets().get(0).getCount()).isEqualTo(1);
        assertThat(workload.getSpec().getActive()).isTrue();
    }

    @Test
    void workloadPriorityClassKeepsValueAtTopLevel() throws Exception {
        String json = """
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"WorkloadPriorityClass",
                 "metadata":{"name":"high"},"value":10000,"description":"for production"}""";
        WorkloadPriorityClass wpc = STRICT.readValue(json, WorkloadPriorityClass.class);
        assertThat(wpc.getValue()).isEqualTo(10000);
        assertSameDocument(STRICT.readTree(json), STRICT.valueToTree(wpc), "");
    }

    /**
     * A v1beta1 document as the controller reads it: read strictly as v1beta1, then converted to the hub (v1beta2),
     * whose defaults apply; v1beta1 objects are never defaulted in their own version.
     */
    private static <T extends HasMetadata> T hub(JsonNode v1beta1, Class<T> hubType) throws Exception {
        STRICT.treeToValue(v1beta1, KINDS.get(v1beta1.get("kind").asText()));
        return STRICT.treeToValue(KueueConversion.convert(v1beta1, KueueConversion.V1BETA2), hubType);
    }

    /**
     * Equal trees, where a number in the original may come back as the same quantity string: Kubernetes quantities
     * are int-or-string, and the model keeps each one as its exact string.
     */
    static void assertSameDocument(JsonNode original, JsonNode written, String path) {
        if (original.isNumber() && written.isTextual()) {
            assertThat(new Quantity(written.asText())).as(path).isEqualTo(new Quantity(original.asText()));
            return;
        }
        assertThat(written.getNodeType()).as("type at %s", path).isEqualTo(original.getNodeType());
        if (original.isObject()) {
            assertThat(fieldNames(written)).as("fields at %s", path).containsExactlyInAnyOrderElementsOf(fieldNames(original));
            original.fieldNames().forEachRemaining(f -> assertSameDocument(original.get(f), written.get(f), path + "/" + f));
        } else if (original.isArray()) {
            assertThat(written.size()).as("length at %s", path).isEqualTo(original.size());
            for (int i = 0; i < original.size(); i++) {
                assertSameDocument(original.get(i), written.get(i), path + "/" + i);
            }
        } else {
            assertThat(written).as(path).isEqualTo(original);
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            names.add(it.next());
        }
        return names;
    }
}
