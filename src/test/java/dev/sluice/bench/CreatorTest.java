package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.sim.KueueBenchmark;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Workloads are created once each, never before their planned time, with the lag behind the plan reported. */
class CreatorTest {

    @Test
    void everyWorkloadIsCreatedOnceAndNeverEarly() throws Exception {
        try (LocalApiServer server = new LocalApiServer(true)) {
            List<BenchObjects.Planned> planned = new ArrayList<>();
            for (String ns : List.of("a", "b")) {
                server.bench.resource(BenchObjects.namespace(ns)).create();
                for (int i = 0; i < 30; i++) {
                    // a burst of ten at the same moment, then one every 10 ms
                    BenchObjects.Planned p = BenchObjects.planned(ns, KueueBenchmark.BASELINE, 0, i, 200);
                    planned.add(new BenchObjects.Planned(p.namespace(), p.name(), p.stream(), 0, i, i < 10 ? 100 : 100 + 10L * i, 200));
                }
            }
            planned.sort((x, y) -> Long.compare(x.createAtMillis(), y.createAtMillis()));
            WorkloadApi api = new WorkloadApi(server.url);
            Creator creator = new Creator(api, planned, 4);
            Map<String, Long> sentAt = new ConcurrentHashMap<>();
            long start = System.nanoTime();
            creator.start(() -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                    (p, at) -> assertThat(sentAt.put(p.key(), at)).as("sent twice: " + p.key()).isNull());
            await().atMost(Duration.ofSeconds(30)).until(() -> creator.created() == planned.size());
            creator.stop();

            for (BenchObjects.Planned p : planned) {
                assertThat(sentAt.get(p.key())).as(p.key()).isGreaterThanOrEqualTo(p.createAtMillis());
            }
            assertThat(WorkloadJson.list(api.list())).extracting(WorkloadView::key)
                    .containsExactlyInAnyOrderElementsOf(planned.stream().map(BenchObjects.Planned::key).toList());
            Creator.Lag lag = creator.lag();
            assertThat(lag.created()).isEqualTo(planned.size());
            assertThat(lag.failures()).isZero();
            assertThat(lag.maxSeconds()).isGreaterThanOrEqualTo(lag.avgSeconds()).isGreaterThanOrEqualTo(0);
            assertThat(lag.spanSeconds()).isPositive();
            assertThat(lag.perSecond()).isEqualTo(planned.size() / lag.spanSeconds());
        }
    }

    @Test
    void atLeastOneCreationMustBeInFlight() {
        assertThatThrownBy(() -> new Creator(new WorkloadApi("http://127.0.0.1:1"), List.of(), 0))
                .hasMessageContaining("--creators must be at least 1");
    }
}
