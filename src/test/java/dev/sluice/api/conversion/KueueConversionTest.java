package dev.sluice.api.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

/** What each rename of Kueue's conversion files does, and how a bad object is named. */
class KueueConversionTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static ObjectNode yaml(String text) throws Exception {
        return (ObjectNode) YAML.readTree(text);
    }

    @Test
    void clusterQueueRenamesAndRespellings() throws Exception {
        ObjectNode v1 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  cohort: team
                  admissionChecks: [prov, multikueue]
                  flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
                  resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 4}]}]}]
                """);
        ObjectNode v2 = KueueConversion.convert(v1, KueueConversion.V1BETA2);
        assertThat(v2.at("/spec/cohortName").asText()).isEqualTo("team");
        assertThat(v2.at("/spec").has("cohort")).isFalse();
        assertThat(v2.at("/spec/admissionChecksStrategy/admissionChecks/1/name").asText()).isEqualTo("multikueue");
        assertThat(v2.at("/spec").has("admissionChecks")).isFalse();
        assertThat(v2.at("/spec/flavorFungibility/whenCanBorrow").asText()).isEqualTo("MayStopSearch");
        assertThat(v2.at("/spec/flavorFungibility/whenCanPreempt").asText()).isEqualTo("MayStopSearch");
        assertThat(v2.at("/spec/resourceGroups")).isEqualTo(v1.at("/spec/resourceGroups"));
        assertThat(v2.at("/metadata/annotations").has(KueueConversion.V1BETA1_FIELDS)).isTrue();

        // a v1beta2 writer changes the strategy: the old v1beta1 spelling no longer applies and is not brought back
        ((ObjectNode) v2.at("/spec/admissionChecksStrategy/admissionChecks/0")).put("name", "other");
        ObjectNode back = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        assertThat(back.at("/spec").has("admissionChecks")).isFalse();
        assertThat(back.at("/spec/admissionChecksStrategy/admissionChecks/0/name").asText()).isEqualTo("other");
        assertThat(back.at("/spec/flavorFungibility/whenCanBorrow").asText()).isEqualTo("Borrow");
        assertThat(back.at("/spec/cohort").asText()).isEqualTo("team");
        assertThat(back.path("metadata").has("annotations")).isFalse();
    }

    /** Kueue v0.19 has flavorFungibility.preference in both versions: it crosses as it is, nothing kept aside. */
    @Test
    void thePreferenceIsTheSameFieldInBothVersions() throws Exception {
        ObjectNode v2 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor, preference: PreemptionOverBorrowing}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        assertThat(v1.at("/spec/flavorFungibility")).isEqualTo(v2.at("/spec/flavorFungibility"));
        assertThat(v1.path("metadata").has("annotations")).isFalse();
        assertThat(KueueConversion.convert(v1, KueueConversion.V1BETA2)).isEqualTo(v2);
    }

    @Test
    void aV1beta2OnlyFieldSurvivesV1beta1() throws Exception {
        ObjectNode v2 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq, annotations: {owner: me}}
                spec:
                  cohortName: team
                  concurrentAdmissionPolicy: {migration: {mode: TryPreferredFlavors}}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        assertThat(v1.at("/spec").has("concurrentAdmissionPolicy")).isFalse();
        assertThat(v1.at("/metadata/annotations/owner").asText()).isEqualTo("me");
        assertThat(v1.at("/metadata/annotations/" + KueueConversion.V1BETA2_FIELDS.replace("/", "~1")).asText())
                .contains("concurrentAdmissionPolicy");
        // a v1beta1 client edits something else; the v1beta2-only field comes back
        ((ObjectNode) v1.get("spec")).put("cohort", "other");
        ObjectNode v2again = KueueConversion.convert(v1, KueueConversion.V1BETA2);
        assertThat(v2again.at("/spec/concurrentAdmissionPolicy/migration/mode").asText()).isEqualTo("TryPreferredFlavors");
        assertThat(v2again.at("/spec/cohortName").asText()).isEqualTo("other");
        assertThat(v2again.at("/metadata/annotations").size()).isEqualTo(1);
    }

    @Test
    void workloadPriorityClassRef() throws Exception {
        ObjectNode v1 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: wl, namespace: ns}
                spec:
                  priorityClassName: high
                  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
                  priority: 1000
                  podSets: [{name: main, count: 1, template: {spec: {containers: []}}}]
                status:
                  accumulatedPastExexcutionTimeSeconds: 12
                """);
        ObjectNode v2 = KueueConversion.convert(v1, KueueConversion.V1BETA2);
        assertThat(v2.at("/spec/priorityClassRef")).isEqualTo(yaml("{group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}"));
        assertThat(v2.at("/spec").has("priorityClassName")).isFalse();
        assertThat(v2.at("/status/accumulatedPastExecutionTimeSeconds").asInt()).isEqualTo(12);
        assertThat(v2.path("metadata").has("annotations")).as("nothing to keep").isFalse();

        ObjectNode pod = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: ns}
                spec:
                  priorityClassRef: {group: scheduling.k8s.io, kind: PriorityClass, name: low}
                  podSets: []
                """);
        ObjectNode down = KueueConversion.convert(pod, KueueConversion.V1BETA1);
        assertThat(down.at("/spec/priorityClassName").asText()).isEqualTo("low");
        assertThat(down.at("/spec/priorityClassSource").asText()).isEqualTo("scheduling.k8s.io/priorityclass");
    }

    @Test
    void topologyDomainsBecomeSlicesAndBack() throws Exception {
        ObjectNode v2 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: ns}
                spec: {podSets: []}
                status:
                  admission:
                    clusterQueue: cq
                    podSetAssignments:
                    - name: main
                      topologyAssignment:
                        levels: [block, host]
                        slices:
                        - domainCount: 2
                          valuesPerLevel:
                          - universal: b1
                          - individual: {prefix: "node-", roots: ["1", "2"]}
                          podCounts: {universal: 4}
                """);
        ObjectNode v1 = KueueConversion.convert(v2, KueueConversion.V1BETA1);
        assertThat(v1.at("/status/admission/podSetAssignments/0/topologyAssignment/domains")).isEqualTo(
                YAML.readTree("[{values: [b1, node-1], count: 4}, {values: [b1, node-2], count: 4}]"));
        assertThat(KueueConversion.convert(v1, KueueConversion.V1BETA2)).isEqualTo(v2);
    }

    @Test
    void localQueueFlavorsUsage() throws Exception {
        ObjectNode v1 = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: lq, namespace: ns}
                spec: {clusterQueue: cq}
                status: {flavorUsage: [{name: f, resources: [{name: cpu, total: "2"}]}], pendingWorkloads: 0}
                """);
        ObjectNode v2 = KueueConversion.convert(v1, KueueConversion.V1BETA2);
        assertThat(v2.at("/status/flavorsUsage/0/name").asText()).isEqualTo("f");
        assertThat(v2.at("/status").has("flavorUsage")).isFalse();
    }

    @Test
    void aBadObjectIsNamedWithTheField() throws Exception {
        assertThatThrownBy(() -> KueueConversion.convert(yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec: {admissionChecks: [ok, 3]}
                """), KueueConversion.V1BETA2)).isInstanceOf(ConversionException.class)
                .hasMessage("ClusterQueue cq: spec.admissionChecks[1]: must be the name of an AdmissionCheck (a string), not 3");
        assertThatThrownBy(() -> KueueConversion.convert(yaml("""
                apiVersion: kueue.x-k8s.io/v1beta3
                kind: Workload
                metadata: {name: w, namespace: ns}
                """), KueueConversion.V1BETA1)).hasMessageContaining("Workload ns/w: apiVersion: \"kueue.x-k8s.io/v1beta3\"");
        // every kind of Kueue v0.19.2's group is converted now: an unknown one is made up
        assertThatThrownBy(() -> KueueConversion.convert(yaml("{apiVersion: kueue.x-k8s.io/v1beta1, kind: Widget, metadata: {name: t}}"),
                KueueConversion.V1BETA2)).hasMessageContaining("Widget t: kind: \"Widget\" is not a kind Sluice converts");
        assertThatThrownBy(() -> KueueConversion.convert(yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: f}
                """), "kueue.x-k8s.io/v2")).hasMessageContaining("ResourceFlavor f: desiredAPIVersion: \"kueue.x-k8s.io/v2\"");
        assertThatThrownBy(() -> KueueConversion.convert(yaml("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: f, annotations: {"sluice.dev/v1beta2-fields": "not json"}}
                """), KueueConversion.V1BETA2)).hasMessageContaining("ResourceFlavor f: metadata.annotations[sluice.dev/v1beta2-fields]");
        JsonNode notAnObject = YAML.readTree("[1]");
        assertThatThrownBy(() -> KueueConversion.convert(notAnObject, KueueConversion.V1BETA2)).hasMessageContaining("object: must be a JSON object");
    }
}
