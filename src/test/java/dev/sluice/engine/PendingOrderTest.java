package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.cq;
import static dev.sluice.engine.Fixtures.flavor;
import static dev.sluice.engine.Fixtures.key;
import static dev.sluice.engine.Fixtures.lq;
import static dev.sluice.engine.Fixtures.settle;
import static dev.sluice.engine.Fixtures.wl;
import static dev.sluice.engine.Fixtures.withStrategy;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The visibility API's positions are {@link Engine#pendingOrder}: it must be the order in which the engine actually
 * admits, across priorities and for both queueing strategies, set-aside workloads included.
 */
class PendingOrderTest {

    @Test
    void bestEffortFifoOrderIsTheAdmissionOrder() {
        checkOrderIsAdmissionOrder(QueueingStrategy.BestEffortFIFO);
    }

    @Test
    void strictFifoOrderIsTheAdmissionOrder() {
        checkOrderIsAdmissionOrder(QueueingStrategy.StrictFIFO);
    }

    /** Room for one workload at a time; eight waiting of mixed priority and age: each admission is the first listed. */
    private static void checkOrderIsAdmissionOrder(QueueingStrategy strategy) {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        e.upsertClusterQueue(withStrategy(cq("cq", null, "cpu", "f", 1), strategy));
        e.upsertLocalQueue(lq("default", "a", "cq"));
        e.upsertLocalQueue(lq("default", "b", "cq"));
        e.submit(wl("running", "a", 0, 0, "cpu", 1, 1));
        assertThat(Fixtures.admitted(settle(e, 1))).containsExactly(key("running"));
        int[] priorities = {0, 100, 50, 100, 0, 50, 200, 0};
        for (int i = 0; i < priorities.length; i++) {
            e.submit(wl("w" + i, i % 2 == 0 ? "a" : "b", priorities[i], 10 + i, "cpu", 1, 1));
        }
        settle(e, 2); // every head tried once and set aside (BestEffortFIFO parks them)
        List<WorkloadKey> order = e.pendingOrder("cq");
        assertThat(order).extracting(WorkloadKey::name)
                .containsExactly("w6", "w1", "w3", "w2", "w5", "w0", "w4", "w7"); // priority, then older first
        List<WorkloadKey> admitted = new ArrayList<>();
        WorkloadKey running = key("running");
        long now = 3;
        while (!e.pendingOrder("cq").isEmpty()) {
            WorkloadKey next = e.pendingOrder("cq").get(0);
            e.finish(running);
            List<WorkloadKey> got = Fixtures.admitted(settle(e, now++));
            assertThat(got).as("admitted after %s finished", running).containsExactly(next);
            admitted.add(next);
            running = next;
        }
        assertThat(admitted).isEqualTo(order);
    }

    @Test
    void unknownQueueHasNoOrderAndAdmittedOnesAreNotListed() {
        Engine e = new Engine();
        e.upsertFlavor(flavor("f"));
        e.upsertClusterQueue(cq("cq", null, "cpu", "f", 1));
        e.upsertLocalQueue(lq("default", "a", "cq"));
        e.submit(wl("x", "a", 0, 0, "cpu", 1, 1));
        e.submit(wl("y", "a", 0, 1, "cpu", 1, 1));
        settle(e, 1);
        assertThat(e.pendingOrder("cq")).containsExactly(key("y"));
        assertThat(e.pendingOrder("nope")).isNull();
    }
}
