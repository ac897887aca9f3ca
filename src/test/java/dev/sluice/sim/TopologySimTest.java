package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.tas.TasNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Topology-aware scheduling in the simulator: Node and Topology objects of the input (either version) reach the
 * engine, {@code --nodes} makes a synthetic cluster with its labels, placements are in the JSON and the timeline, and
 * bad input or flags are refused with their field and exit code 2.
 */
class TopologySimTest {

    private static final String RACKS = "src/test/resources/sim/topology/racks.yaml";

    private static Scenario load(String... args) throws Exception {
        return SimulateCommand.load(SimOptions.parse(args));
    }

    @Test
    void nodesAndATopologyOfEitherVersionPlaceEachJobInOneRack() {
        Sim sim = Sim.run("-o", "json", RACKS);
        assertThat(sim.exit()).as(sim.err()).isZero();
        JsonNode pair = sim.events("Admitted", "Job/default/pair").get(0);
        assertThat(pair.path("time").asDouble()).isZero();
        JsonNode main = pair.path("placements").path("main");
        assertThat(main.path("topology").asText()).isEqualTo("racks");
        assertThat(main.path("levels").toString()).isEqualTo("[\"kubernetes.io/hostname\"]");
        assertThat(main.path("domains").toString())
                .isEqualTo("[{\"values\":[\"n1\"],\"count\":1},{\"values\":[\"n2\"],\"count\":1}]");
        assertThat(main.path("podsPerLevel").path("example.com/rack").toString()).isEqualTo("{\"r1\":2}");

        // n3 offers its capacity (no allocatable given); n4 is NotReady, so rack r2 holds one pod of 3 cpu, not two
        JsonNode single = sim.events("Admitted", "Job/default/single").get(0);
        assertThat(single.path("placements").path("main").path("domains").toString())
                .isEqualTo("[{\"values\":[\"n3\"],\"count\":1}]");
        JsonNode waiting = sim.events("Inadmissible", "Job/default/second-pair").get(0);
        assertThat(waiting.path("message").asText()).isEqualTo("couldn't assign flavors to pod set main: topology"
                + " \"racks\" allows to fit only 1 out of 2 pod(s). Total nodes: 3; excluded: resource \"cpu\": 2");
        JsonNode later = sim.events("Admitted", "Job/default/second-pair").get(0);
        assertThat(later.path("time").asDouble()).isEqualTo(60.0);
        assertThat(later.path("placements").path("main").path("podsPerLevel").path("example.com/rack").toString())
                .isEqualTo("{\"r1\":2}");
        // events without a placement carry none
        assertThat(sim.events("Finished", "Job/default/pair").get(0).has("placements")).isFalse();
    }

    @Test
    void theTimelineHasAPlacementColumnOnlyWhenSomethingIsPlaced() {
        Sim tas = Sim.run(RACKS);
        assertThat(tas.exit()).as(tas.err()).isZero();
        String header = tas.out().lines().findFirst().orElseThrow();
        assertThat(header.split(" {2,}")).containsExactly("TIME", "EVENT", "JOB", "CLUSTERQUEUE", "FLAVORS", "PLACEMENT",
                "MESSAGE");
        assertThat(tas.out().lines().filter(l -> l.contains("Admitted") && l.contains("Job/default/pair")))
                .singleElement().asString().contains("main: rack r1 (2 pods, 2 hosts)");
        assertThat(tas.out().lines().filter(l -> l.contains("Admitted") && l.contains("Job/default/single")))
                .singleElement().asString().contains("main: rack r2, host n3 (1 pod, 1 host)");

        Sim plain = Sim.run("examples/gke-multislice");
        assertThat(plain.out().lines().findFirst().orElseThrow()).doesNotContain("PLACEMENT");
    }

    @Test
    void badNodesAndTopologiesAreRefusedWithTheirFields() {
        Sim sim = Sim.run("src/test/resources/sim/topology/bad.yaml");
        assertThat(sim.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(sim.err()).contains("(Node unreadable): status.allocatable.cpu: not a valid quantity: quantity"
                + " \"lots\" is not a Kubernetes quantity")
                .contains("(Node empty): status.allocatable: required; give what the node offers")
                .contains("(Topology nolevels): spec.levels: Invalid value: 0: spec.levels in body should have at"
                        + " least 1 items")
                .contains("(Topology blank): spec.levels[0].nodeLabel: Invalid value: \"\"")
                .contains("Node empty is already defined in");
        assertThat(sim.out()).isEmpty();
    }

    @Test
    void nodesFlagMakesBlocksRacksAndHostsWithTheLevelLabelsAndTheFlavorsNodeLabels() throws Exception {
        Scenario s = load("--generate", "kueue-baseline", "--scale", "0.01", "--nodes",
                "blocks=2,racks=3,hosts=4,cpu=8,nvidia.com/gpu=8");
        assertThat(s.nodes()).hasSize(24);
        TasNode first = s.nodes().get(0);
        TasNode last = s.nodes().get(23);
        assertThat(first.name()).isEqualTo("b0-r0-h0");
        assertThat(last.name()).isEqualTo("b1-r2-h3");
        assertThat(last.labels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cloud.google.com/gce-topology-block", "b1",
                "cloud.google.com/gce-topology-subblock", "b1-r2",
                "kubernetes.io/hostname", "b1-r2-h3",
                "tas-node-group", "tas")); // the benchmark flavor's nodeLabels, so that it places on them
        assertThat(first.allocatable()).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 8_000L,
                "nvidia.com/gpu", 8_000L, "memory", 256L * 1024 * 1024 * 1024 * 1000, "pods", 110_000L));
        assertThat(first.schedulableAndReady()).isTrue();
        assertThat(s.topologies()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("default");
            assertThat(t.levels()).containsExactlyElementsOf(SyntheticNodes.DEFAULT_LEVELS);
        });
        assertThat(s.flavors()).singleElement().extracting(FlavorSpec::topologyName).isEqualTo("default");
    }

    @Test
    void nodesFlagTakesOtherLevelLabelsAndATopologyNameForTheInputsFlavors() throws Exception {
        Scenario s = load("--nodes", "racks=2,hosts=2", "--node-levels", "example.com/zone,example.com/rack,"
                + "kubernetes.io/hostname", "--topology", "gpu-topology", "src/test/resources/sim/topology/flavor-only.yaml");
        // they carry flavor gpu's nodeLabels (pool: gpu): it names their Topology
        assertThat(s.nodes()).hasSize(4);
        TasNode generated = s.nodes().get(3);
        assertThat(generated.name()).isEqualTo("b0-r1-h1");
        assertThat(generated.labels()).containsExactlyInAnyOrderEntriesOf(Map.of("example.com/zone", "b0",
                "example.com/rack", "b0-r1", "kubernetes.io/hostname", "b0-r1-h1", "pool", "gpu"));
        assertThat(generated.allocatable()).containsEntry("cpu", 96_000L);
        assertThat(s.topology("gpu-topology").levels()).containsExactly("example.com/zone", "example.com/rack",
                "kubernetes.io/hostname");
    }

    @Test
    void aTopologyOfTheFlagAndOneOfTheInputWithTheSameNameIsADuplicate() {
        Sim sim = Sim.run("--nodes", "hosts=2", "--topology", "racks", RACKS);
        assertThat(sim.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(sim.err()).contains("Topology racks is already defined in " + RACKS + " document 1");
    }

    @Test
    void nodesNoFlavorUsesAreWarnedAbout() {
        Sim sim = Sim.run("--nodes", "hosts=2", "--topology", "unused", "examples/gke-multislice");
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(sim.err()).contains("no ResourceFlavor names Topology unused (spec.topologyName)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--nodes|rack=4|--nodes: unknown key \"rack\"; the keys are blocks, racks, hosts",
        "--nodes|blocks=x|--nodes: blocks must be a whole number of at least 1, got \"x\"",
        "--nodes|hosts=0|--nodes: hosts must be a whole number of at least 1, got \"0\"",
        "--nodes|cpu=lots|--nodes: cpu must be a quantity of at least 0 such as 96, 500m or 256Gi, got \"lots\"",
        "--nodes|racks|--nodes: \"racks\" is not KEY=VALUE",
        "--nodes|blocks=1000,racks=1000|--nodes: 1000000 nodes is more than the simulator takes (100000)",
        "--node-levels|a,b|--node-levels only applies with --nodes",
        "--topology|x|--topology only applies with --nodes",
    })
    void badNodeFlagsSayWhatIsWrong(String flag, String value, String message) {
        Sim sim = Sim.run(flag, value, "examples/gke-multislice");
        assertThat(sim.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(sim.err()).startsWith("simulate: " + message).contains("Run 'simulate --help' for usage.");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--node-levels|a,b|--node-levels needs three node labels, block,rack,host",
        "--node-levels|a,a,b|--node-levels: each level needs its own label",
        "--topology|Bad_Name|--topology: \"Bad_Name\" is not a valid object name",
    })
    void badLevelAndTopologyFlagsSayWhatIsWrong(String flag, String value, String message) {
        Sim sim = Sim.run("--nodes", "hosts=2", flag, value, "examples/gke-multislice");
        assertThat(sim.exit()).isEqualTo(SimulateCommand.BAD_INPUT);
        assertThat(sim.err()).startsWith("simulate: " + message);
    }

    @Test
    void kueueBaselineOnNodesPlacesEveryWorkloadThroughTas() {
        Sim sim = Sim.run("-o", "json", "--generate", "kueue-baseline", "--scale", "0.01", "--nodes",
                "blocks=1,racks=2,hosts=2");
        assertThat(sim.exit()).as(sim.err()).isZero();
        List<JsonNode> admitted = sim.lines().stream().filter(n -> n.path("event").asText().equals("Admitted")).toList();
        assertThat(admitted).isNotEmpty().allSatisfy(a ->
                assertThat(a.path("placements").path("main").path("topology").asText()).isEqualTo("default"));
    }

    /** Kueue's TAS benchmark config: nine streams per ClusterQueue on 1 block × 10 racks × 64 hosts. */
    @Test
    void kueueTasIsKueuesTasBenchmark() throws Exception {
        Scenario s = load("--generate", "kueue-tas", "--scale", "0.1");
        assertThat(s.nodes()).hasSize(640);
        assertThat(s.nodes().get(0).labels()).containsEntry("cloud.provider.com/topology-rack", "b0-r0")
                .containsEntry("tas-node-group", "tas");
        assertThat(s.topology("default-topology").levels()).containsExactly("cloud.provider.com/topology-block",
                "cloud.provider.com/topology-rack", "kubernetes.io/hostname");
        assertThat(s.workloads()).hasSize(KueueTasBenchmark.workloads(0.1));
        assertThat(KueueTasBenchmark.workloads(1.0)).isEqualTo(15_000);
        var byName = new java.util.HashMap<String, SimWorkload>();
        s.workloads().forEach(w -> byName.put(w.key().namespace() + "/" + w.key().name(), w));
        var required = byName.get("cq-0-0-cohort-0/large-required-rack-6-0-0").spec().podSets().get(0);
        assertThat(required.count()).isEqualTo(8);
        assertThat(required.requestsPerPod()).containsEntry("cpu", 2_500L);
        assertThat(required.topologyRequest().required()).isEqualTo("cloud.provider.com/topology-rack");
        var preferred = byName.get("cq-0-0-cohort-0/small-preferred-rack-1-0-0").spec().podSets().get(0);
        assertThat(preferred.topologyRequest().preferred()).isEqualTo("cloud.provider.com/topology-rack");
        var balanced = byName.get("cq-0-0-cohort-0/medium-balanced-rack-5-0-0").spec().podSets().get(0);
        assertThat(balanced.topologyRequest().podSetSliceRequiredTopology()).isEqualTo("cloud.provider.com/topology-rack");
        assertThat(balanced.topologyRequest().podSetSliceSize()).isEqualTo(2);
    }
}
