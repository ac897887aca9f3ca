package dev.sluice.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.WorkloadKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Positions and paging as Kueue's visibility server counts them. */
class PendingPageTest {

    // the ClusterQueue's order: LocalQueues a and b in namespace n1, a in n2 (a different LocalQueue of the same name)
    static final List<WorkloadKey> ORDER = List.of(k("n1", "w0"), k("n1", "w1"), k("n2", "w2"), k("n1", "w3"),
            k("n1", "w4"), k("n2", "w5"));
    static final Map<String, String> QUEUE = Map.of("w0", "a", "w1", "b", "w2", "a", "w3", "a", "w4", "b", "w5", "a");

    static WorkloadKey k(String ns, String name) {
        return new WorkloadKey(ns, name);
    }

    static String queueOf(WorkloadKey k) {
        return QUEUE.get(k.name());
    }

    @Test
    void clusterQueuePositionsCountEachLocalQueueOnItsOwn() {
        assertThat(PendingPage.ofClusterQueue(ORDER, PendingPageTest::queueOf, 0, 1000)).containsExactly(
                new PendingPage.Entry(k("n1", "w0"), 0, 0), new PendingPage.Entry(k("n1", "w1"), 1, 0),
                new PendingPage.Entry(k("n2", "w2"), 2, 0), new PendingPage.Entry(k("n1", "w3"), 3, 1),
                new PendingPage.Entry(k("n1", "w4"), 4, 1), new PendingPage.Entry(k("n2", "w5"), 5, 1));
    }

    @Test
    void clusterQueuePagesKeepTheirPositions() {
        assertThat(PendingPage.ofClusterQueue(ORDER, PendingPageTest::queueOf, 3, 2)).containsExactly(
                new PendingPage.Entry(k("n1", "w3"), 3, 1), new PendingPage.Entry(k("n1", "w4"), 4, 1));
        assertThat(PendingPage.ofClusterQueue(ORDER, PendingPageTest::queueOf, 6, 10)).isEmpty();
        assertThat(PendingPage.ofClusterQueue(ORDER, PendingPageTest::queueOf, 5, 10)).extracting(PendingPage.Entry::key)
                .containsExactly(k("n2", "w5"));
    }

    @Test
    void localQueueListsOnlyItsNamespaceAndName() {
        assertThat(PendingPage.ofLocalQueue(ORDER, PendingPageTest::queueOf, "n1", "a", 0, 1000)).containsExactly(
                new PendingPage.Entry(k("n1", "w0"), 0, 0), new PendingPage.Entry(k("n1", "w3"), 3, 1));
        assertThat(PendingPage.ofLocalQueue(ORDER, PendingPageTest::queueOf, "n2", "a", 1, 1)).containsExactly(
                new PendingPage.Entry(k("n2", "w5"), 5, 1));
        assertThat(PendingPage.ofLocalQueue(ORDER, PendingPageTest::queueOf, "n1", "b", 0, 1)).containsExactly(
                new PendingPage.Entry(k("n1", "w1"), 1, 0));
    }
}
