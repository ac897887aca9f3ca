package dev.sluice.api.v1beta1;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.conversion.KueueConversion;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every field of the admission-check kinds, and of ClusterQueue's and Workload's admission-check fields, as Kueue
 * v0.19.2 writes them, read by Sluice's model of each version and written back unchanged (a field the model does not
 * know fails the read), and the same object converted to the other version reads there too.
 */
class AdmissionCheckRoundTripTest {

    private static final ObjectMapper STRICT = Serialization.jsonMapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper SORTED = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private static final Map<String, Class<? extends HasMetadata>> V1BETA1 = Map.of(
            "AdmissionCheck", AdmissionCheck.class, "ProvisioningRequestConfig", ProvisioningRequestConfig.class,
            "MultiKueueConfig", MultiKueueConfig.class, "MultiKueueCluster", MultiKueueCluster.class,
            "ClusterQueue", ClusterQueue.class, "Workload", Workload.class);
    private static final Map<String, Class<? extends HasMetadata>> V1BETA2 = Map.of(
            "AdmissionCheck", dev.sluice.api.v1beta2.AdmissionCheck.class,
            "ProvisioningRequestConfig", dev.sluice.api.v1beta2.ProvisioningRequestConfig.class,
            "MultiKueueConfig", dev.sluice.api.v1beta2.MultiKueueConfig.class,
            "MultiKueueCluster", dev.sluice.api.v1beta2.MultiKueueCluster.class,
            "ClusterQueue", dev.sluice.api.v1beta2.ClusterQueue.class, "Workload", dev.sluice.api.v1beta2.Workload.class);

    private static final String CONDITIONS = """
            status:
              conditions:
              - {type: Active, status: "True", reason: Active, message: The admission check is active, lastTransitionTime: "2026-12-02T10:00:00Z", observedGeneration: 1}
            """;

    @ParameterizedTest
    @ValueSource(strings = {
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: AdmissionCheck
        metadata: {name: prov}
        spec:
          controllerName: kueue.x-k8s.io/provisioning-request
          parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: prov-config}
        """ + CONDITIONS,
        """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: AdmissionCheck
        metadata: {name: prov}
        spec:
          controllerName: kueue.x-k8s.io/provisioning-request
          retryDelayMinutes: 15
          parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: prov-config}
        """ + CONDITIONS,
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ProvisioningRequestConfig
        metadata: {name: prov-config}
        spec:
          provisioningClassName: queued-provisioning.gke.io
          parameters: {maxRunDurationSeconds: "3600"}
          managedResources: [nvidia.com/gpu]
          retryStrategy: {backoffLimitCount: 3, backoffBaseSeconds: 60, backoffMaxSeconds: 1800}
          podSetUpdates:
            nodeSelector: [{key: cloud.google.com/gke-nodepool, valueFromProvisioningClassDetail: NodePoolName}]
          podSetMergePolicy: IdenticalWorkloadSchedulingRequirements
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ProvisioningRequestConfig
        metadata: {name: prov-config}
        spec:
          provisioningClassName: check-capacity.autoscaling.x-k8s.io
          managedResources: [nvidia.com/gpu]
          podSetMergePolicy: IdenticalPodTemplates
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: MultiKueueConfig
        metadata: {name: mk}
        spec: {clusters: [worker1, worker2], quotaManagement: Manual}
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: MultiKueueConfig
        metadata: {name: mk}
        spec: {clusters: [worker1]}
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: MultiKueueCluster
        metadata: {name: worker1}
        spec: {clusterSource: {kubeConfig: {location: worker1-secret, locationType: Secret}}}
        """ + CONDITIONS,
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: MultiKueueCluster
        metadata: {name: worker2}
        spec: {clusterSource: {clusterProfileRef: {name: worker2-profile}}}
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: MultiKueueCluster
        metadata: {name: worker1}
        spec: {kubeConfig: {location: /etc/worker1.kubeconfig, locationType: Path}, clusterProfileRef: {name: w1}}
        """ + CONDITIONS,
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          admissionChecksStrategy:
            admissionChecks: [{name: prov, onFlavors: [spot, on-demand]}, {name: multikueue}]
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          admissionChecks: [prov, multikueue]
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          admissionChecksStrategy:
            admissionChecks: [{name: prov, onFlavors: [spot]}]
        """,
        """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Workload
        metadata: {name: job-a-1b2c3, namespace: team-a}
        status:
          admissionChecks:
          - name: prov
            state: Ready
            lastTransitionTime: "2026-12-02T10:00:00Z"
            message: provisioned
            retryCount: 1
            requeueAfterSeconds: 0
            podSetUpdates:
            - name: main
              labels: {a: b}
              annotations: {c: d}
              nodeSelector: {cloud.google.com/gke-nodepool: pool-1}
              tolerations: [{key: spot, operator: Equal, value: "true", effect: NoExecute, tolerationSeconds: 30}]
          - {name: multikueue, state: Pending, lastTransitionTime: "2026-12-02T10:00:00Z", message: ""}
        """ })
    void kueuesObjectReadsAndWritesUnchangedInItsVersionAndTheOther(String document) throws Exception {
        JsonNode original = YAML.readTree(document);
        assertUnchanged(original);
        String other = original.path("apiVersion").asText().endsWith("v1beta1") ? KueueConversion.V1BETA2
                : KueueConversion.V1BETA1;
        JsonNode converted = KueueConversion.convert(original, other);
        if (converted.at("/spec/kubeConfig/locationType").asText("-").isEmpty()) {
            // Kueue's empty v1beta1 kubeConfig of a ClusterProfile-only cluster: "" is no LocationType, in
            // Kueue's v1beta1 schema nor in Sluice's model (which nothing in Sluice reads in v1beta1)
            assertThat(converted.at("/spec/kubeConfig").toString()).isEqualTo("{\"location\":\"\",\"locationType\":\"\"}");
            return;
        }
        assertUnchanged(converted);
    }

    private static void assertUnchanged(JsonNode document) throws Exception {
        var kinds = document.path("apiVersion").asText().endsWith("v1beta1") ? V1BETA1 : V1BETA2;
        HasMetadata model = STRICT.treeToValue(document, kinds.get(document.path("kind").asText()));
        assertThat(sorted(STRICT.valueToTree(model))).isEqualTo(sorted(document));
    }

    private static String sorted(JsonNode tree) throws Exception {
        return SORTED.writeValueAsString(SORTED.treeToValue(tree, Object.class));
    }
}
