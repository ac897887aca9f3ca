package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * examples/gke-multislice-tas: the tutorial's JobSets with podset-required-topology block on twelve TPU nodes in two
 * blocks. 1slice and 2slice each land in one block at once; 3slice waits, with quota to spare, because no block has
 * six free hosts until they finish, then takes block a.
 */
class GkeMultisliceTasExampleTest {

    private static final String EXAMPLE = "examples/gke-multislice-tas";

    private static JsonNode placement(JsonNode admitted) {
        return admitted.path("placements").path("slice");
    }

    @Test
    void eachJobSetLandsInOneBlockAndThreeSliceWaitsForAWholeBlock() {
        Sim sim = Sim.run("-o", "json", EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();

        JsonNode one = sim.events("Admitted", "JobSet/default/multislice-1slice").get(0);
        assertThat(one.path("time").asDouble()).isZero();
        assertThat(placement(one).path("topology").asText()).isEqualTo("gke-tpu");
        assertThat(placement(one).path("podsPerLevel").toString()).isEqualTo("{"
                + "\"cloud.google.com/gce-topology-block\":{\"b\":2},"
                + "\"cloud.google.com/gce-topology-subblock\":{\"b1\":2},"
                + "\"kubernetes.io/hostname\":{\"gke-tpu-b1-0\":1,\"gke-tpu-b1-1\":1}}");

        JsonNode two = sim.events("Admitted", "JobSet/default/multislice-2slice").get(0);
        assertThat(two.path("time").asDouble()).isZero();
        assertThat(placement(two).path("podsPerLevel").path("cloud.google.com/gce-topology-block").toString())
                .isEqualTo("{\"a\":4}");
        assertThat(placement(two).path("podsPerLevel").path("cloud.google.com/gce-topology-subblock").toString())
                .isEqualTo("{\"a1\":4}");

        String three = "JobSet/default/multislice-3slice";
        JsonNode waits = sim.events("Inadmissible", three).get(0);
        assertThat(waits.path("time").asDouble()).isZero();
        assertThat(waits.path("message").asText()).isEqualTo("couldn't assign flavors to pod set slice: topology"
                + " \"gke-tpu\" allows to fit only 4 out of 6 pod(s). Total nodes: 12; excluded: resource"
                + " \"google.com/tpu\": 6");
        JsonNode admitted = sim.events("Admitted", three).get(0);
        assertThat(admitted.path("time").asDouble()).isEqualTo(60.0);
        assertThat(placement(admitted).path("podsPerLevel").path("cloud.google.com/gce-topology-block").toString())
                .isEqualTo("{\"a\":6}");
        assertThat(placement(admitted).path("domains")).hasSize(6).allSatisfy(d ->
                assertThat(d.path("count").asInt()).isEqualTo(1));
        assertThat(sim.summary().path("finished").asInt()).isEqualTo(3);
        assertThat(sim.summary().path("makespan").asDouble()).isEqualTo(120.0);
    }

    @Test
    void theTimelineSaysWhichBlockEachSliceLandsIn() {
        Sim sim = Sim.run(EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(sim.out()).contains("slice: block b, subblock b1 (2 pods, 2 hosts)")
                .contains("slice: block a, subblock a1 (4 pods, 4 hosts)")
                .contains("slice: block a (6 pods, 6 hosts)");
    }
}
