package dev.sluice.bench;

import dev.sluice.api.v1beta1.Admission;
import dev.sluice.api.v1beta1.PodSetAssignment;
import dev.sluice.api.v1beta1.Workload;
import dev.sluice.api.v1beta1.WorkloadStatus;
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
 * client thread (as the controller's engine thread writes) and from four. Three rounds of as many writes, not
 * timed, warm both ends up first: the run may not have used this request's code path (the driver and the controller
 * write status as patches), and until the JIT compiler has optimised it a write takes several times longer.
 */
record Limit(int writes, double sequentialPerSecond, double concurrentPerSecond) {

    static final String NAMESPACE = "bench-limit";
    private static final int WARM_UP_PASSES = 3;

    static Limit measure(KubernetesClient client, int writes) throws Exception {
        client.resource(BenchObjects.namespace(NAMESPACE)).create();
        KueueBenchmark.Stream stream = KueueBenchmark.BASELINE.streams().get(0);
        List<Workload> created = new ArrayList<>();
        for (int i = 0; i < 3 * writes; i++) {
            Workload w = BenchObjects.workload(NAMESPACE, stream, 0, i);
            w.getSpec().setQueueName("none");
            created.add(client.resource(w).create());
        }
        for (int pass = 0; pass < WARM_UP_PASSES; pass++) {
            for (int i = 2 * writes; i < 3 * writes; i++) {
                admit(client, created.get(i)); // warm-up: the same path as measured, not measured
            }
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < writes; i++) {
            admit(client, created.get(i));
        }
        double sequential = writes / ((System.nanoTime() - t0) / 1e9);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            long t1 = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int i = writes; i < 2 * writes; i++) {
                Workload w = created.get(i);
                done.add(pool.submit(() -> admit(client, w)));
            }
            for (Future<?> f : done) {
                f.get();
            }
            double concurrent = writes / ((System.nanoTime() - t1) / 1e9);
            return new Limit(writes, sequential, concurrent);
        } finally {
            pool.shutdownNow();
        }
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
