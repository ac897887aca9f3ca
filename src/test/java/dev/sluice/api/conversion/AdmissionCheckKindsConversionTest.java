package dev.sluice.api.conversion;

import static dev.sluice.api.conversion.KueueConversion.V1BETA1;
import static dev.sluice.api.conversion.KueueConversion.V1BETA2;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The admission-check kinds through /convert: Kueue's multikueue_conversion_test.go cases (named after them, in JSON
 * as Kueue's Go types write them: v1beta1's kubeConfig is never omitted, v1beta2's clusterSource neither), then what
 * Kueue drops and Sluice keeps for the way back, and the admission-check fields of ClusterQueue and Workload.
 */
class AdmissionCheckKindsConversionTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String STATUS = """
            status:
              conditions:
              - {type: Active, status: "True", reason: Ready, message: "", lastTransitionTime: "2026-12-02T10:00:00Z"}
            """;

    private static ObjectNode yaml(String text) throws Exception {
        return (ObjectNode) YAML.readTree(text);
    }

    private static ObjectNode cluster(String version, String spec) throws Exception {
        return yaml("apiVersion: kueue.x-k8s.io/" + version + "\nkind: MultiKueueCluster\n"
                + "metadata: {name: test-multikueuecluster}\n" + spec);
    }

    private static void assertRoundTrip(ObjectNode original) throws Exception {
        String other = original.path("apiVersion").asText().equals(V1BETA1) ? V1BETA2 : V1BETA1;
        JsonNode there = KueueConversion.convert(original, other);
        assertThat(KueueConversion.convert(there, original.path("apiVersion").asText())).isEqualTo(original);
    }

    // TestMultiKueueClusterConvertTo

    @Test
    void convertToKubeConfigConversion() throws Exception {
        ObjectNode v1 = cluster("v1beta1", "spec: {kubeConfig: {location: test-location, locationType: Secret}}");
        assertThat(KueueConversion.convert(v1, V1BETA2)).isEqualTo(
                cluster("v1beta2", "spec: {clusterSource: {kubeConfig: {location: test-location, locationType: Secret}}}"));
    }

    @Test
    void convertToEmptyKubeConfig() throws Exception {
        ObjectNode v1 = cluster("v1beta1", "spec: {kubeConfig: {location: '', locationType: ''}}");
        assertThat(KueueConversion.convert(v1, V1BETA2)).isEqualTo(cluster("v1beta2", "spec: {clusterSource: {}}"));
    }

    @Test
    void convertToCompleteMultiKueueClusterWithStatus() throws Exception {
        ObjectNode v1 = cluster("v1beta1", "spec: {kubeConfig: {location: test-location, locationType: Path}}\n" + STATUS);
        assertThat(KueueConversion.convert(v1, V1BETA2)).isEqualTo(cluster("v1beta2",
                "spec: {clusterSource: {kubeConfig: {location: test-location, locationType: Path}}}\n" + STATUS));
    }

    // TestMultiKueueClusterConvertFrom

    @Test
    void convertFromKubeConfigConversion() throws Exception {
        ObjectNode v2 = cluster("v1beta2", "spec: {clusterSource: {kubeConfig: {location: test-location, locationType: Secret}}}");
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(
                cluster("v1beta1", "spec: {kubeConfig: {location: test-location, locationType: Secret}}"));
    }

    @Test
    void convertFromNilKubeConfig() throws Exception {
        ObjectNode v2 = cluster("v1beta2", "spec: {clusterSource: {}}");
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(
                cluster("v1beta1", "spec: {kubeConfig: {location: '', locationType: ''}}"));
    }

    @Test
    void convertFromClusterProfileRefConversion() throws Exception {
        ObjectNode v2 = cluster("v1beta2", "spec: {clusterSource: {clusterProfileRef: {name: foobar}}}");
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(cluster("v1beta1",
                "spec: {kubeConfig: {location: '', locationType: ''}, clusterProfileRef: {name: foobar}}"));
    }

    @Test
    void convertFromCompleteMultiKueueClusterWithStatus() throws Exception {
        ObjectNode v2 = cluster("v1beta2",
                "spec: {clusterSource: {kubeConfig: {location: test-location, locationType: Path}}}\n" + STATUS);
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(
                cluster("v1beta1", "spec: {kubeConfig: {location: test-location, locationType: Path}}\n" + STATUS));
    }

    // TestMultiKueueClusterConversion_RoundTrip and _RoundTrip_Reverse

    @ParameterizedTest
    @ValueSource(strings = {
        // complete MultiKueueCluster with KubeConfig and status
        "spec: {kubeConfig: {location: test-location, locationType: Secret}}\n" + STATUS,
        // minimal MultiKueueCluster
        "",
        // not Kueue's: no kubeConfig, a kubeConfig without location but with a type (Kueue loses both)
        "spec: {clusterProfileRef: {name: foobar}}",
        "spec: {kubeConfig: {location: '', locationType: Path}}" })
    void roundTrip(String spec) throws Exception {
        assertRoundTrip(cluster("v1beta1", spec));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // complete MultiKueueCluster with ClusterProfile and status
        "spec: {clusterSource: {clusterProfileRef: {name: foobar}}}\n" + STATUS,
        // complete MultiKueueCluster with KubeConfig and status
        "spec: {clusterSource: {kubeConfig: {location: test-location, locationType: Secret}}}\n" + STATUS,
        // minimal MultiKueueCluster
        "",
        // not Kueue's: both sources, and a field of clusterSource v1beta1 has no place for
        "spec: {clusterSource: {kubeConfig: {location: a}, clusterProfileRef: {name: b}, inventory: {x: 1}}}" })
    void roundTripReverse(String spec) throws Exception {
        assertRoundTrip(cluster("v1beta2", spec));
    }

    @Test
    void anAdmissionChecksRetryDelayIsKeptForV1beta1() throws Exception {
        ObjectNode v1 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: AdmissionCheck
                metadata: {name: prov}
                spec:
                  controllerName: kueue.x-k8s.io/provisioning-request
                  retryDelayMinutes: 5
                  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: prov-config}
                """);
        ObjectNode v2 = KueueConversion.convert(v1, V1BETA2);
        assertThat(v2.at("/spec").has("retryDelayMinutes")).as("v1beta2 has no such field").isFalse();
        assertThat(v2.at("/spec/controllerName").asText()).isEqualTo("kueue.x-k8s.io/provisioning-request");
        assertThat(v2.at("/spec/parameters")).isEqualTo(v1.at("/spec/parameters"));
        assertThat(v2.at("/metadata/annotations/" + KueueConversion.V1BETA1_FIELDS.replace("/", "~1")).asText())
                .isEqualTo("{\"/spec/retryDelayMinutes\":5}");
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(v1);
    }

    @Test
    void aMultiKueueConfigsQuotaManagementIsKeptForV1beta2() throws Exception {
        ObjectNode v2 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: MultiKueueConfig
                metadata: {name: mk}
                spec: {clusters: [worker1, worker2], quotaManagement: Automated}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, V1BETA1);
        assertThat(v1.at("/spec/clusters")).isEqualTo(v2.at("/spec/clusters"));
        assertThat(v1.at("/spec").has("quotaManagement")).isFalse();
        assertThat(KueueConversion.convert(v1, V1BETA2)).isEqualTo(v2);
    }

    @Test
    void aProvisioningRequestConfigReadsTheSameInBothVersions() throws Exception {
        ObjectNode v1 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ProvisioningRequestConfig
                metadata: {name: prov-config}
                spec:
                  provisioningClassName: check-capacity.autoscaling.x-k8s.io
                  managedResources: [nvidia.com/gpu]
                  retryStrategy: {backoffLimitCount: 2, backoffBaseSeconds: 30, backoffMaxSeconds: 600}
                  podSetUpdates:
                    nodeSelector: [{key: cloud.google.com/gke-nodepool, valueFromProvisioningClassDetail: NodePoolName}]
                  podSetMergePolicy: IdenticalPodTemplates
                """);
        ObjectNode v2 = KueueConversion.convert(v1, V1BETA2);
        ObjectNode expected = v1.deepCopy().put("apiVersion", V1BETA2);
        assertThat(v2).isEqualTo(expected);
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(v1);
    }

    @Test
    void aClusterQueuesChecksPerFlavorAreTheSameStrategyInBothVersions() throws Exception {
        ObjectNode v2 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  admissionChecksStrategy:
                    admissionChecks:
                    - {name: prov, onFlavors: [spot]}
                    - {name: multikueue}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, V1BETA1);
        assertThat(v1.at("/spec/admissionChecksStrategy")).isEqualTo(v2.at("/spec/admissionChecksStrategy"));
        assertThat(v1.at("/spec").has("admissionChecks")).isFalse();
        assertThat(KueueConversion.convert(v1, V1BETA2)).isEqualTo(v2);
    }

    @Test
    void aWorkloadsCheckStatesAreTheSameInBothVersions() throws Exception {
        ObjectNode v1 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: job-a-1b2c3, namespace: team-a}
                spec: {queueName: team-a, podSets: [{name: main, count: 1, template: {spec: {containers: []}}}]}
                status:
                  admissionChecks:
                  - name: prov
                    state: Retry
                    lastTransitionTime: "2026-12-02T10:00:00Z"
                    message: capacity not available
                    retryCount: 2
                    requeueAfterSeconds: 60
                    podSetUpdates:
                    - name: main
                      nodeSelector: {cloud.google.com/gke-nodepool: pool-1}
                      tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]
                """);
        ObjectNode v2 = KueueConversion.convert(v1, V1BETA2);
        assertThat(v2.at("/status/admissionChecks")).isEqualTo(v1.at("/status/admissionChecks"));
        assertThat(KueueConversion.convert(v2, V1BETA1)).isEqualTo(v1);
    }
}
