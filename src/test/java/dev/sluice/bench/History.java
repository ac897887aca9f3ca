package dev.sluice.bench;

import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The history scenario's past: {@code count} finished bare Workloads stored before the controller starts (as a year
 * of jobs leaves them when nothing deletes them), spread over the scenario's namespaces, each with the admission it
 * ran with and {@code Finished=True}. They hold no quota; the controller must list them (paged), keep them cheaply and
 * become ready. Created over HTTP like everything else (a create, then a status patch), many at a time.
 */
final class History {

    private static final int IN_FLIGHT = 64;

    private History() {
    }

    /** Stores the Workloads; returns how long it took, in seconds. */
    static double store(WorkloadApi api, List<String> namespaces, int count) throws Exception {
        long start = System.nanoTime();
        Semaphore slots = new Semaphore(IN_FLIGHT);
        AtomicInteger failed = new AtomicInteger();
        String at = Instant.now().minusSeconds(3600).toString().replaceAll("\\.\\d+Z$", "Z");
        String status = """
                [{"op": "add", "path": "/status", "value": {"conditions": [
                  {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "Quota reserved in ClusterQueue %1$s", "lastTransitionTime": "%2$s"},
                  {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "The workload is admitted", "lastTransitionTime": "%2$s"},
                  {"type": "Finished", "status": "True", "reason": "Succeeded", "message": "Finished by the benchmark's history", "lastTransitionTime": "%2$s"}],
                 "admission": {"clusterQueue": "%1$s", "podSetAssignments": [{"name": "main", "count": 1, "flavors": {"cpu": "%3$s"}, "resourceUsage": {"cpu": "1"}}]}}}]""";
        for (int i = 0; i < count; i++) {
            String ns = namespaces.get(i % namespaces.size());
            String name = "history-" + i;
            Workload wl = Serialization.unmarshal("""
                    {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                     "metadata": {"name": "%s", "namespace": "%s", "labels": {"sluice.dev/bench": "history"}},
                     "spec": {"queueName": "%s", "priority": 0, "podSets": [{"name": "main", "count": 1,
                       "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox",
                         "resources": {"requests": {"cpu": "1"}}}]}}}]}}
                    """.formatted(name, ns, BenchObjects.localQueue(ns).getMetadata().getName()), Workload.class);
            slots.acquire();
            String patch = status.formatted(ns, at, BenchObjects.FLAVOR);
            CompletableFuture<HttpResponse<String>> created = api.create(ns, Serialization.asJson(wl));
            created.whenComplete((r, e) -> {
                try {
                    if (e != null || r.statusCode() / 100 != 2 || api.patchStatus(ns, name, patch) / 100 != 2) {
                        failed.incrementAndGet();
                    }
                } catch (Exception ex) {
                    failed.incrementAndGet();
                } finally {
                    slots.release();
                }
            });
            if ((i + 1) % 20_000 == 0) {
                System.err.printf(Locale.ROOT, "history: %d stored (%.0f s)%n", i + 1, (System.nanoTime() - start) / 1e9);
            }
        }
        slots.acquire(IN_FLIGHT);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + count + " history Workloads could not be stored");
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
