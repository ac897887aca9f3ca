package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.sluice.api.conversion.KueueConversion;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** simulate reads kueue.x-k8s.io v1beta1 and v1beta2 alike: the seeds and their v1beta2 translations admit the same. */
class BothVersionsTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    @TempDir
    Path dir;

    /** Every line but the Summary's timings: events, then the summary's counts. */
    static List<String> decisions(Sim sim) {
        assertThat(sim.exit()).as(sim.err()).isZero();
        List<String> out = new ArrayList<>();
        for (JsonNode line : sim.lines()) {
            if (line.path("event").asText().equals("Summary")) {
                out.add("makespan=" + line.path("makespan") + " admitted=" + line.path("admitted") + " finished="
                        + line.path("finished") + " pending=" + line.path("pending"));
            } else {
                out.add(line.toString());
            }
        }
        return out;
    }

    /** Copies a seed file into dir, its kueue.x-k8s.io objects translated to v1beta2 by Sluice's conversion. */
    Path translated(String resource, String name) throws Exception {
        List<JsonNode> docs = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            YAML.readerFor(JsonNode.class).readValues(in).forEachRemaining(n -> docs.add((JsonNode) n));
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode doc : docs) {
            if (doc == null || doc.isNull()) {
                continue;
            }
            JsonNode out = doc.path("apiVersion").asText().equals(KueueConversion.V1BETA1)
                    ? KueueConversion.convert(doc, KueueConversion.V1BETA2) : doc;
            text.append("---\n").append(YAML.writeValueAsString(out));
        }
        Path file = dir.resolve(name);
        Files.writeString(file, text.toString());
        return file;
    }

    Path copy(String resource, String name) throws Exception {
        Path file = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void theTutorialAdmitsTheSameInV1beta2() throws Exception {
        Path v1 = Files.createDirectories(dir.resolve("v1"));
        Path v2 = Files.createDirectories(dir.resolve("v2"));
        Files.move(copy("/seeds/gke-multislice/kueue.yaml", "a.yaml"), v1.resolve("1-kueue.yaml"));
        Files.move(translated("/seeds/gke-multislice/kueue.yaml", "b.yaml"), v2.resolve("1-kueue.yaml"));
        for (Path d : List.of(v1, v2)) {
            Files.move(copy("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "j-" + d.getFileName() + ".yaml"),
                    d.resolve("2-jobsets.yaml"));
        }
        assertThat(Files.readString(v2.resolve("1-kueue.yaml"))).contains("kueue.x-k8s.io/v1beta2").doesNotContain("v1beta1");
        List<String> first = decisions(Sim.run("--output", "json", v1.toString()));
        assertThat(first).anySatisfy(l -> assertThat(l).contains("\"Admitted\""));
        assertThat(decisions(Sim.run("--output", "json", v2.toString()))).isEqualTo(first);
    }

    @Test
    void thePreemptionSeedAdmitsAndPreemptsTheSameInV1beta2() throws Exception {
        Path v1 = Files.createDirectories(dir.resolve("v1"));
        Path v2 = Files.createDirectories(dir.resolve("v2"));
        Files.move(copy("/seeds/gke-multislice/kueue-preemption.yaml", "a.yaml"), v1.resolve("1-kueue.yaml"));
        Files.move(translated("/seeds/gke-multislice/kueue-preemption.yaml", "b.yaml"), v2.resolve("1-kueue.yaml"));
        for (Path d : List.of(v1, v2)) {
            Files.move(copy("/seeds/gke-multislice/priorityclass-low.yaml", "p-" + d.getFileName() + ".yaml"), d.resolve("2-pc.yaml"));
            Files.move(copy("/seeds/gke-multislice/jobset-low-priority-autopilot.yaml", "l-" + d.getFileName() + ".yaml"),
                    d.resolve("3-low.yaml"));
            Files.move(copy("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml", "j-" + d.getFileName() + ".yaml"),
                    d.resolve("4-jobsets.yaml"));
        }
        List<String> first = decisions(Sim.run("--output", "json", v1.toString()));
        assertThat(decisions(Sim.run("--output", "json", v2.toString()))).isEqualTo(first);
    }

    @Test
    void theV1beta2ExampleIsTheTutorial() {
        assertThat(decisions(Sim.run("--output", "json", "examples/gke-multislice-v1beta2")))
                .isEqualTo(decisions(Sim.run("--output", "json", "examples/gke-multislice")));
    }

    @Test
    void oneInputMixesVersionsAndRenamedFieldsMeanTheSame() throws Exception {
        Path file = dir.resolve("mixed.yaml");
        Files.writeString(file, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: f}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: a}
                spec:
                  cohortName: pool
                  namespaceSelector: {}
                  flavorFungibility: {whenCanBorrow: MayStopSearch}
                  resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 2}]}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: b}
                spec:
                  cohort: pool
                  namespaceSelector: {}
                  resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 4}]}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: pool}
                spec: {fairSharing: {weight: "1"}}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata: {name: lq, namespace: default}
                spec: {clusterQueue: a}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: WorkloadPriorityClass
                metadata: {name: high}
                value: 1000
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w, namespace: default}
                spec:
                  queueName: lq
                  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}
                  podSets: [{name: main, count: 5, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
                """);
        Sim sim = Sim.run("--output", "json", file.toString());
        assertThat(sim.exit()).as(sim.err()).isZero();
        // 5 cpu in a queue of 2: admitted only by borrowing from b through the cohort named in v1beta2
        assertThat(sim.events("Admitted", "Workload/default/w")).singleElement()
                .satisfies(e -> assertThat(e.path("clusterQueue").asText()).isEqualTo("a"));
        ScenarioBuilder builder = new ScenarioBuilder(60_000);
        new ManifestLoader(dev.sluice.jobs.JobKinds.standard()).load(List.of(file.toString()), builder);
        Scenario scenario = builder.build();
        assertThat(scenario.cohorts()).singleElement().satisfies(c -> assertThat(c.getMetadata().getName()).isEqualTo("pool"));
    }

    @Test
    void aV1beta2FieldOfTheWrongVersionIsNamed() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: a}
                spec: {cohort: pool}
                """);
        Sim sim = Sim.run(file.toString());
        assertThat(sim.exit()).isEqualTo(2);
        assertThat(sim.err()).contains("ClusterQueue a").contains("cohort");
    }

    @Test
    void aJobWhoseLocalQueueIsMissingWaitsInadmissibleWithAWarning() throws Exception {
        Path file = dir.resolve("missing-queue.yaml");
        Files.writeString(file, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: f}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  namespaceSelector: {}
                  resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 2}]}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata: {name: lq, namespace: default}
                spec: {clusterQueue: cq}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: lost, namespace: default, labels: {kueue.x-k8s.io/queue-name: nowhere}}
                spec:
                  suspend: true
                  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: fine, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  suspend: true
                  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}
                """);
        Sim sim = Sim.run("--output", "json", file.toString());
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(sim.err()).contains("warning").contains("Job default/lost").contains("LocalQueue \"nowhere\"");
        assertThat(sim.events("Inadmissible", "Job/default/lost")).singleElement()
                .satisfies(e -> assertThat(e.path("message").asText()).isEqualTo("LocalQueue nowhere doesn't exist"));
        assertThat(sim.events("Admitted", "Job/default/lost")).isEmpty();
        assertThat(sim.events("Admitted", "Job/default/fine")).hasSize(1);
        assertThat(sim.summary().path("pending").asInt()).isEqualTo(1);
    }
}
