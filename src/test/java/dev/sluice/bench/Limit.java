package dev.sluice.bench;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.sim.KueueBenchmark;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The API server alone, with the controller stopped and everything the run created still stored: how many
 * Workload status writes carrying an admission (the write an admission needs) it takes per second, from one
 * client thread (as the controller's engine thread writes) and from four. Rounds of as many writes each way, not
 * timed, warm both ends up first, until neither way is more than 10 % faster than in the round before: the run may not
 * have used this request's code path (the driver and the controller write status as patches), and until the JIT
 * compiler has optimised it a write takes several times longer (a fresh server and client needed over 10,000 writes).
 */
record Limit(int writes, double sequentialPerSecond, double concurrentPerSecond, int warmUpWrites) {

    static final String NAMESPACE = "bench-limit";
    private static final int MAX_WARM_UP_ROUNDS = 12;

    static Limit measure(KubernetesClient client, int writes) throws Exception {
        client.resource(BenchObjects.namespace(NAMESPACE)).create();
        KueueBenchmark.Stream stream = KueueBenchmark.BASELINE.streams().get(0);
        List<Workload> created = new ArrayList<>();
        for (int i = 0; i < 3 * writes; i++) {
            Workload w = BenchObjects.workload(NAMESPACE, stream, 0, i);
            w.getSpec().setQueueName("none");
            created.add(client.resource(w).create());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Workload> warmUpSet = created.subList(2 * writes, 3 * writes);
            int warmUp = 0;
            double[] before = null;
            for (int round = 0; round < MAX_WARM_UP_ROUNDS; round++) {
                double[] rates = {sequential(client, warmUpSet), concurrent(client, pool, warmUpSet)};
                warmUp += 2 * writes;
                if (before != null && rates[0] <= 1.1 * before[0] && rates[1] <= 1.1 * before[1]) {
                    break;
                }
                before = rates;
            }
            return new Limit(writes, sequential(client, created.subList(0, writes)),
                    concurrent(client, pool, created.subList(writes, 2 * writes)), warmUp);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Writes per second, one after the other from this thread. */
    private static double sequential(KubernetesClient client, List<Workload> workloads) {
        long t0 = System.nanoTime();
        for (Workload w : workloads) {
            admit(client, w);
        }
        return workloads.size() / ((System.nanoTime() - t0) / 1e9);
    }

    /** Writes per second from the pool's threads at once. */
    private static double concurrent(KubernetesClient client, ExecutorService pool, List<Workload> workloads) throws Exception {
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (Workload w : workloads) {
            done.add(pool.submit(() -> admit(client, w)));
        }
        for (Future<?> f : done) {
            f.get();
        }
        return workloads.size() / ((System.nanoTime() - t0) / 1e9);
    }

    private static void admit(KubernetesClient client, Workload w) {
        PodSetAssignment psa = new PodSetAssignment();
        psa.setName("main");
        psa.setCount(1);
        psa.setFlavors(Map.of("cpu", BenchObjects.FLAVOR));
        psa.setResourceUsage(Map.of("cpu", new Quantity("1")));
        Admission a = new Admission();
        a.setClusterQueue("cq-0-0-cohort-0");
        a.setPodSetAssignments(List.of(psa));
        WorkloadStatus status = new WorkloadStatus();
        status.setAdmission(a);
        String now = Instant.now().toString();
        status.setConditions(List.of(
                new ConditionBuilder().withType("QuotaReserved").withStatus("True").withReason("QuotaReserved")
                        .withMessage("Quota reserved in ClusterQueue cq-0-0-cohort-0").withLastTransitionTime(now).build(),
                new ConditionBuilder().withType("Admitted").withStatus("True").withReason("Admitted")
                        .withMessage("The workload is admitted").withLastTransitionTime(now).build()));
        w.setStatus(status);
        client.resources(Workload.class).inNamespace(NAMESPACE).resource(w).updateStatus();
    }
}
