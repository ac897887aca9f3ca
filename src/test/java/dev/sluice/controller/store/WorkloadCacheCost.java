package dev.sluice.controller.store;

import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark, not a test: the heap one cached Workload costs, pending, admitted and finished, in the shape of
 * Kueue's baseline (bench/e2e.sh), each parsed from its own JSON as the informer gets it. Fills a Workload cache with
 * N of one kind and prints the live heap after a full GC against the empty cache, for two sizes (the engine form a
 * pending or admitted Workload's entry holds is counted too; in the controller the engine shares it):
 *
 * <pre>java -XX:+UseSerialGC -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     dev.sluice.controller.store.WorkloadCacheCost [5000 20000]</pre>
 *
 * (put another build's target/classes first on the class path to measure it). See bench/RESULTS.md.
 */
public final class WorkloadCacheCost {

    private static final String WORKLOAD = """
            {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
             "metadata": {"name": "small-%1$d-%2$d-0", "namespace": "ns-%1$d", "uid": "%3$s", "resourceVersion": "%4$d",
               "creationTimestamp": "2025-01-02T03:%5$02d:%6$02dZ", "generation": 1,
               "labels": {"kueue.x-k8s.io/bench-class": "small", "kueue.x-k8s.io/bench-running-time": "200"},
               "annotations": {"sluice.dev/simulated-duration": "200ms", "sluice.dev/simulated-submit-at": "%7$dms"},
               "managedFields": [{"manager": "bench", "operation": "Update", "apiVersion": "kueue.x-k8s.io/v1beta2"}]},
             "spec": {"queueName": "ns-%1$d", "priority": 50, "podSets": [{"name": "main", "count": 1,
               "template": {"spec": {"restartPolicy": "Never",
                 "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]},
             "status": %8$s}
            """;

    private static final String PENDING = """
            {"conditions": [{"type": "QuotaReserved", "status": "False", "reason": "Pending",
               "message": "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed",
               "lastTransitionTime": "2025-01-02T03:%1$02d:%2$02dZ", "observedGeneration": 1}]}""";

    private static final String ADMITTED = """
            {"conditions": [
               {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                "message": "Quota reserved in ClusterQueue cq-%3$d, wait time since queued was %4$ds",
                "lastTransitionTime": "2025-01-02T03:%1$02d:%2$02dZ", "observedGeneration": 1},
               {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "The workload is admitted",
                "lastTransitionTime": "2025-01-02T03:%1$02d:%2$02dZ", "observedGeneration": 1}],
             "admission": {"clusterQueue": "cq-%3$d", "podSetAssignments": [{"name": "main", "count": 1,
               "flavors": {"cpu": "default"}, "resourceUsage": {"cpu": "1"}}]}}""";

    private static final String FINISHED = """
            {"conditions": [
               {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                "message": "Quota reserved in ClusterQueue cq-%3$d, wait time since queued was %4$ds",
                "lastTransitionTime": "2025-01-02T03:%1$02d:%2$02dZ", "observedGeneration": 1},
               {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "The workload is admitted",
                "lastTransitionTime": "2025-01-02T03:%1$02d:%2$02dZ", "observedGeneration": 1},
               {"type": "Finished", "status": "True", "reason": "Succeeded", "message": "Job finished successfully",
                "lastTransitionTime": "2025-01-02T04:%1$02d:%2$02dZ", "observedGeneration": 1}],
             "admission": {"clusterQueue": "cq-%3$d", "podSetAssignments": [{"name": "main", "count": 1,
               "flavors": {"cpu": "default"}, "resourceUsage": {"cpu": "1"}}]}}""";

    private WorkloadCacheCost() {
    }

    /** The states measured: the shape of each one's status. */
    enum State {
        pending, admitted, finished
    }

    static Workload workload(int i, boolean finished) {
        return workload(i, finished ? State.finished : State.pending);
    }

    static Workload workload(int i, State state) {
        int ns = i % 50;
        int minute = (i / 60) % 60;
        int second = i % 60;
        String status = switch (state) {
            case pending -> PENDING.formatted(minute, second);
            case admitted -> ADMITTED.formatted(minute, second, i % 30, i % 97);
            case finished -> FINISHED.formatted(minute, second, i % 30, i % 97);
        };
        // a canonical uid, as the API server gives every object (a UUID, lower-case hex)
        String uid = String.format(Locale.ROOT, "%08x-5d1e-4c7a-9f0e-%012d", i * 7919, 100000 + i);
        String json = WORKLOAD.formatted(ns, i, uid,
                1000 + i, minute, second, 60 * i, status);
        return Serialization.unmarshal(json, Workload.class);
    }

    public static void main(String[] args) throws Exception {
        int small = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        int large = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        boolean histogram = args.length > 2 && args[2].equals("histogram");
        workload(0, State.finished); // load the classes and Jackson's serializers before the first measurement
        long empty = liveHeap();
        for (State state : State.values()) {
            long[] used = new long[2];
            int[] sizes = { small, large };
            for (int k = 0; k < 2; k++) {
                used[k] = filled(sizes[k], state, histogram && k == 1) - empty;
            }
            System.out.printf(Locale.ROOT, "%s: %d Workloads %.1f MiB, %d Workloads %.1f MiB; %d bytes per Workload%n",
                    state, small, used[0] / 1048576.0, large, used[1] / 1048576.0, (used[1] - used[0]) / (large - small));
        }
    }

    /** The live heap with a cache of n Workloads (the cache is garbage once this returns). */
    private static long filled(int n, State state, boolean histogram) throws Exception {
        WorkloadStore store = new WorkloadStore();
        for (int i = 0; i < n; i++) {
            Workload wl = workload(i, state);
            store.put(wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName(), wl);
        }
        long live = liveHeap();
        if (histogram) {
            new ProcessBuilder("jcmd", Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
                    .inheritIO().start().waitFor();
        }
        if (store.size() != n) {
            throw new IllegalStateException("the cache lost Workloads");
        }
        return live;
    }

    /** The heap in use after a collection, the least of three (the tools' measure of what is live). */
    static long liveHeap() {
        Runtime rt = Runtime.getRuntime();
        List<Long> samples = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            System.gc();
            samples.add(rt.totalMemory() - rt.freeMemory());
        }
        return samples.stream().min(Long::compare).orElseThrow();
    }
}
