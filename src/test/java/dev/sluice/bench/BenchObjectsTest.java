package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.sim.KueueBenchmark;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Kueue's benchmark as cluster objects: counts, schedule and queue settings as DESIGN's "Performance references". */
class BenchObjectsTest {

    @Test
    void baselineHas15000WorkloadsOnKueuesSchedule() {
        List<BenchObjects.Planned> planned = BenchObjects.workloads(KueueBenchmark.BASELINE);
        assertThat(planned).hasSize(15_000);
        assertThat(BenchObjects.queueNames(KueueBenchmark.BASELINE)).hasSize(30).contains("cq-0-5-cohort-4");
        Map<String, Long> perClass = planned.stream().collect(Collectors.groupingBy(BenchObjects.Planned::className,
                Collectors.counting()));
        assertThat(perClass).containsEntry("small", 10_500L).containsEntry("medium", 3_000L).containsEntry("large", 1_500L);
        // creation order; the n-th small Workload of a queue at n × 100 ms, the last large at 50 × 1,200 ms
        assertThat(planned).isSortedAccordingTo((a, b) -> Long.compare(a.createAtMillis(), b.createAtMillis()));
        assertThat(planned.get(0).createAtMillis()).isEqualTo(100);
        assertThat(planned.get(planned.size() - 1).createAtMillis()).isEqualTo(60_000);
        BenchObjects.Planned large = planned.stream().filter(p -> p.className().equals("large")).findFirst().orElseThrow();
        assertThat(large.runtimeMillis()).isEqualTo(1_000);
        assertThat(large.workload().getSpec().getPriority()).isEqualTo(200);
        assertThat(large.workload().getSpec().getQueueName()).isEqualTo(large.workload().getMetadata().getNamespace());
        assertThat(large.workload().getSpec().getPodSets().get(0).getTemplate().getSpec().getContainers().get(0)
                .getResources().getRequests().get("cpu").toString()).isEqualTo("20");
        assertThat(planned.stream().map(BenchObjects.Planned::key).distinct().count()).isEqualTo(15_000);
        // the key names the object that is built
        for (BenchObjects.Planned p : List.of(planned.get(0), large, planned.get(planned.size() - 1))) {
            assertThat(p.key()).isEqualTo(p.workload().getMetadata().getNamespace() + "/" + p.workload().getMetadata().getName());
        }
    }

    @Test
    void largeScaleHas50000Workloads() {
        assertThat(BenchObjects.workloads(KueueBenchmark.LARGE_SCALE)).hasSize(50_000);
        assertThat(BenchObjects.queueNames(KueueBenchmark.LARGE_SCALE)).hasSize(1_000);
    }

    @Test
    void clusterQueuesAreKueuesBenchmarkQueues() {
        ClusterQueue cq = BenchObjects.clusterQueue("cq-0-3-cohort-2");
        assertThat(cq.getSpec().getCohortName()).isEqualTo("cohort-2");
        var cpu = cq.getSpec().getResourceGroups().get(0).getFlavors().get(0).getResources().get(0);
        assertThat(cpu.getNominalQuota().toString()).isEqualTo("20");
        assertThat(cpu.getBorrowingLimit().toString()).isEqualTo("100");
        assertThat(cq.getSpec().getPreemption().getReclaimWithinCohort().name()).isEqualTo("Any");
        assertThat(cq.getSpec().getPreemption().getWithinClusterQueue().name()).isEqualTo("LowerPriority");
        assertThat(BenchObjects.localQueue("cq-0-3-cohort-2").getSpec().getClusterQueue()).isEqualTo("cq-0-3-cohort-2");
    }
}
