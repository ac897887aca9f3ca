package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The GKE multislice tutorial: 24 TPU chips of vlp-24, JobSets needing 8, 16 and 24 chips. */
class MultisliceSeedTest {
    private Engine engine;

    @BeforeEach
    void setUp() {
        engine = new Engine();
        engine.upsertFlavor(flavor("vlp-24", VLP_LABELS));
        engine.upsertClusterQueue(cq("cluster-queue", null, TPU, "vlp-24", 24));
        engine.upsertLocalQueue(lq("default", "multislice-queue", "cluster-queue"));
    }

    /** A JobSet of `slices` slices: pod set "slice", 2 pods per slice, 4 chips each, selecting the TPU pools. */
    private static WorkloadSpec jobset(String name, int slices, long created) {
        PodSetSpec slice = new PodSetSpec("slice", 2 * slices, null, Map.of(TPU, units(4)), VLP_LABELS, List.of(),
                List.of());
        return new WorkloadSpec(key(name), "uid-" + name, "multislice-queue", 0, created, List.of(slice), true);
    }

    @Test
    void threeSliceFirstRunsAloneThenTheOthersTogether() {
        engine.submit(jobset("3slice", 3, 0));
        engine.submit(jobset("1slice", 1, 1));
        engine.submit(jobset("2slice", 2, 2));

        CycleResult first = settle(engine, 10);
        assertThat(admitted(first)).containsExactly(key("3slice"));
        Admission a = first.admissions().get(0);
        assertThat(a.assignment().clusterQueue()).isEqualTo("cluster-queue");
        assertThat(a.assignment().podSets().get(0).flavors()).containsEntry(TPU, "vlp-24");
        assertThat(a.assignment().usage()).containsEntry(new FlavorResource("vlp-24", TPU), units(24));
        assertThat(lastMessage(first, key("1slice"))).isEqualTo(
                "couldn't assign flavors to pod set slice: insufficient unused quota for google.com/tpu in flavor"
                        + " vlp-24, 8 more needed");
        assertThat(lastMessage(first, key("2slice"))).isEqualTo(
                "couldn't assign flavors to pod set slice: insufficient unused quota for google.com/tpu in flavor"
                        + " vlp-24, 16 more needed");
        assertThat(engine.workload(key("1slice")).orElseThrow().phase()).isEqualTo(WorkloadPhase.INADMISSIBLE);
        assertThat(engine.clusterQueueStatus("cluster-queue").pendingWorkloads()).isEqualTo(2);
        assertThat(engine.clusterQueueStatus("cluster-queue").admittedWorkloads()).isEqualTo(1);

        engine.finish(key("3slice"));
        CycleResult second = settle(engine, 20);
        assertThat(admitted(second)).containsExactlyInAnyOrder(key("1slice"), key("2slice"));
        assertThat(engine.clusterQueueStatus("cluster-queue").flavorsReservation())
                .containsEntry(new FlavorResource("vlp-24", TPU), units(24));
    }

    @Test
    void smallOnesFirstLeaveThreeSliceWaiting() {
        engine.submit(jobset("1slice", 1, 0));
        engine.submit(jobset("2slice", 2, 1));
        engine.submit(jobset("3slice", 3, 2));

        CycleResult first = settle(engine, 10);
        assertThat(admitted(first)).containsExactly(key("1slice"), key("2slice"));
        assertThat(lastMessage(first, key("3slice"))).isEqualTo(
                "couldn't assign flavors to pod set slice: insufficient unused quota for google.com/tpu in flavor"
                        + " vlp-24, 24 more needed");

        engine.finish(key("1slice"));
        assertThat(settle(engine, 20).admissions()).isEmpty();
        engine.finish(key("2slice"));
        assertThat(admitted(settle(engine, 30))).containsExactly(key("3slice"));
    }

    @Test
    void tooBigForTheQueueSaysSo() {
        engine.submit(jobset("4slice", 4, 0));
        CycleResult r = settle(engine, 0);
        assertThat(lastMessage(r, key("4slice"))).isEqualTo(
                "couldn't assign flavors to pod set slice: insufficient quota for google.com/tpu in flavor vlp-24,"
                        + " request > maximum capacity (32 > 24)");
    }
}
