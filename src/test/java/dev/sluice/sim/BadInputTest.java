package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Bad input is named (file, document, field, what is wrong), exits 2, and nothing is simulated. */
class BadInputTest {

    private static final String DIR = "src/test/resources/sim/bad/";

    private static Sim rejected(String... paths) {
        Sim sim = Sim.run(paths);
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.out()).as("nothing simulated").isEmpty();
        assertThat(sim.err()).contains("nothing was simulated");
        return sim;
    }

    @Test
    void unknownKind() {
        assertThat(rejected(DIR + "unknown-kind.yaml").err()).contains(DIR + "unknown-kind.yaml: document 2 (Deployment web): kind: "
                + "unknown kind Deployment (apiVersion apps/v1)");
    }

    @Test
    void aKueueKindTheSimulatorDoesNotReadIsAnUnknownKind() {
        assertThat(rejected(DIR + "admission-check.yaml").err()).contains(DIR + "admission-check.yaml: document 1"
                + " (AdmissionCheck x): kind: unknown kind AdmissionCheck (apiVersion kueue.x-k8s.io/v1beta2)");
    }

    @Test
    void documentThatDoesNotParse() {
        assertThat(rejected(DIR + "does-not-parse.yaml").err()).contains(DIR + "does-not-parse.yaml: document 2: "
                + "does not parse as YAML").contains("line 9");
    }

    @Test
    void referenceToAMissingObject() {
        assertThat(rejected(DIR + "missing-cluster-queue.yaml").err()).contains(DIR + "missing-cluster-queue.yaml: document 1 "
                + "(LocalQueue lq): spec.clusterQueue: ClusterQueue \"nowhere\" is not in the input");
    }

    @Test
    void invalidValuesAreAllReported() {
        String err = rejected(DIR + "bad-values.yaml").err();
        assertThat(err).contains(DIR + "bad-values.yaml: document 2 (ClusterQueue cq): "
                + "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: \"lots\": quantities"
                + " must match the regular expression");
        assertThat(err).contains(DIR + "bad-values.yaml: document 3 (Job default/slow): "
                + "metadata.annotations[sluice.dev/simulated-duration]: \"a while\" is not a duration");
    }

    @Test
    void missingPathAndUnknownField() throws Exception {
        assertThat(rejected("no/such/dir").err()).contains("no/such/dir: no such file or folder");
        java.nio.file.Path f = java.nio.file.Files.createTempFile("sim", ".yaml");
        java.nio.file.Files.writeString(f, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata:
                  name: cq
                spec:
                  queueingStrategi: StrictFIFO
                """);
        assertThat(rejected(f.toString()).err()).contains("document 1 (ClusterQueue cq): spec.queueingStrategi:");
        java.nio.file.Files.delete(f);
    }

    @Test
    void jobWithAMissingQueueOrPriorityClass() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("sim", ".yaml");
        java.nio.file.Files.writeString(f, """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: lost
                  labels:
                    kueue.x-k8s.io/queue-name: nowhere
                    kueue.x-k8s.io/priority-class: urgent
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: main
                        image: busybox
                """);
        assertThat(rejected(f.toString()).err())
                .contains("document 1 (Job default/lost): metadata.labels[kueue.x-k8s.io/priority-class]: "
                        + "WorkloadPriorityClass \"urgent\" not found");
        java.nio.file.Files.delete(f);
    }

    /**
     * A v1beta2 ClusterQueue read back from a cluster keeps, in an annotation, what its v1beta1 form said that v1beta2
     * cannot: the simulator refuses what it cannot act on (admission checks), not the older spellings Borrow and
     * Preempt, which mean what the v1beta2 object says (MayStopSearch).
     */
    @Test
    void keptV1beta1FieldsAreRefusedButNotTheOlderSpellings() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("sim", ".yaml");
        java.nio.file.Files.writeString(f, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata:
                  name: cq
                  annotations:
                    sluice.dev/v1beta1-fields: '{"/spec/flavorFungibility/whenCanBorrow":"Borrow","/spec/admissionChecks":["check"]}'
                spec:
                  flavorFungibility: {whenCanBorrow: MayStopSearch}
                """);
        String err = rejected(f.toString()).err();
        assertThat(err).contains("document 1 (ClusterQueue cq): has fields the simulator cannot use"
                + " ({\"/spec/admissionChecks\":[\"check\"]})");
        assertThat(err).doesNotContain("whenCanBorrow");
        java.nio.file.Files.delete(f);
    }
    /** A LocalQueue and a ResourceFlavor for the ClusterQueue "cq" of the cases below (flavor "rf", cpu). */
    private static final String AROUND = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: rf}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: LocalQueue
            metadata: {name: lq, namespace: default}
            spec: {clusterQueue: cq}
            ---
            """;

    private static final String CPU = """
            - coveredResources: [cpu]
              flavors:
              - name: rf
                resources: [{name: cpu, nominalQuota: "4"}]
            """;

    private static String clusterQueue(String spec) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
                + "  namespaceSelector: {}\n" + spec.indent(2);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> whatKueueRefuses() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("one resource in two resource groups",
                        AROUND + clusterQueue("resourceGroups:\n" + CPU + CPU.replace("rf", "other")),
                        "(ClusterQueue cq): spec.resourceGroups[1].coveredResources[0]: Duplicate value: \"cpu\""),
                org.junit.jupiter.params.provider.Arguments.of("a flavor twice",
                        AROUND + clusterQueue("resourceGroups:\n" + CPU + CPU.replace("cpu", "memory")),
                        "(ClusterQueue cq): spec.resourceGroups[1].flavors[0].name: Duplicate value: \"rf\""),
                org.junit.jupiter.params.provider.Arguments.of("a lending limit above the nominal quota",
                        AROUND + clusterQueue("cohortName: team\nresourceGroups:\n"
                                + CPU.replace("nominalQuota: \"4\"", "nominalQuota: \"4\", lendingLimit: \"5\"")),
                        "(ClusterQueue cq): spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value:"
                                + " \"5\": must be less than or equal to nominalQuota (4)"),
                org.junit.jupiter.params.provider.Arguments.of("quotas not in the order of the covered resources",
                        AROUND + clusterQueue("resourceGroups:\n" + CPU.replace("[cpu]", "[memory]")),
                        "(ClusterQueue cq): spec.resourceGroups[0].flavors[0].resources[0].name: Invalid value: \"cpu\":"
                                + " must match the name in coveredResources (\"memory\")"),
                org.junit.jupiter.params.provider.Arguments.of("an unknown namespaceSelector operator",
                        AROUND + clusterQueue("resourceGroups:\n" + CPU).replace("namespaceSelector: {}",
                                "namespaceSelector: {matchExpressions: [{key: team, operator: Is, values: [a]}]}"),
                        "(ClusterQueue cq): spec.namespaceSelector.matchExpressions[0].operator: Unsupported value:"
                                + " \"Is\""),
                org.junit.jupiter.params.provider.Arguments.of("a preference without both policies TryNextFlavor",
                        AROUND + clusterQueue("flavorFungibility: {preference: PreemptionOverBorrowing}\n"
                                + "resourceGroups:\n" + CPU),
                        "(ClusterQueue cq): spec.flavorFungibility: Invalid value: \"object\": preference can only be"
                                + " set when both whenCanBorrow and whenCanPreempt are TryNextFlavor"),
                org.junit.jupiter.params.provider.Arguments.of("a fair-sharing weight that collapses to nothing",
                        AROUND + clusterQueue("fairSharing: {weight: 1n}\nresourceGroups:\n" + CPU),
                        "(ClusterQueue cq): spec.fairSharing: Invalid value: \"1n\": When not 0, weight must be"
                                + " > 10e-9"),
                org.junit.jupiter.params.provider.Arguments.of("a LocalQueue of a negative weight", AROUND.replace(
                        "spec: {clusterQueue: cq}", "spec: {clusterQueue: cq, fairSharing: {weight: \"-1\"}}")
                                + clusterQueue("resourceGroups:\n" + CPU),
                        "(LocalQueue default/lq): spec.fairSharing.weight: must not be negative, got -1"),
                org.junit.jupiter.params.provider.Arguments.of("a Workload with two pod sets of one name", AROUND
                        + clusterQueue("resourceGroups:\n" + CPU) + """
                        ---
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: Workload
                        metadata: {name: w}
                        spec:
                          queueName: lq
                          podSets:
                          - {name: main, count: 1, template: {spec: {containers: [{name: c, image: x}]}}}
                          - {name: main, count: 1, template: {spec: {containers: [{name: c, image: x}]}}}
                        """,
                        "(Workload default/w): spec.podSets[1]: Duplicate value: map[string]interface {}{\"name\":"
                                + "\"main\"}"),
                org.junit.jupiter.params.provider.Arguments.of("a Job with a node affinity operator Kubernetes does not"
                        + " know", AROUND + clusterQueue("resourceGroups:\n" + CPU) + """
                        ---
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: j, labels: {kueue.x-k8s.io/queue-name: lq}}
                        spec:
                          template:
                            spec:
                              restartPolicy: Never
                              affinity:
                                nodeAffinity:
                                  requiredDuringSchedulingIgnoredDuringExecution:
                                    nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Is, values: [x]}]}]
                              containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
                        """,
                        "(Job default/j): node selector operator 'Is' for key 'a' is not supported"));
    }

    /**
     * What Kueue's webhook and CRD rules (or the API server) refuse is refused here, with their words, exit 2 and
     * nothing simulated: the engine never gets an object it cannot take (it failed with an internal error, exit 1,
     * or simulated what no cluster would hold). A LocalQueue of a refused ClusterQueue is not reported as missing.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("whatKueueRefuses")
    void whatKueueRefusesIsRefusedWithItsMessage(String what, String yaml, String message) throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("sim", ".yaml");
        java.nio.file.Files.writeString(f, yaml);
        String err = rejected(f.toString()).err();
        assertThat(err).contains(f + ": document ").contains(message).doesNotContain("is not in the input");
        java.nio.file.Files.delete(f);
    }
}
