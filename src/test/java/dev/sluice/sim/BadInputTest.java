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
                + "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: not a valid quantity");
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
}
