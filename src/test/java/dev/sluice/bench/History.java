package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The history scenario's past: {@code count} finished bare Workloads stored before the controller starts (as a year
 * of jobs leaves them when nothing deletes them), spread over the scenario's namespaces, each with the admission it
 * ran with and {@code Finished=True}. They hold no quota; the controller must list them (paged), keep them cheaply and
 * become ready.
 * <p>
 * Two ways in, storing the same objects: {@link #seed} asks the benchmark's API server to store them itself
 * ({@code POST /bench/history}, {@link #storeInto}: a quarter of a million in well under a minute), {@link #store}
 * creates each over HTTP, then patches its status, as a client would (60-180 a second on a loaded machine: 200,000
 * would take up to an hour).
 */
final class History {

    private static final int IN_FLIGHT = 64;
    private static final ObjectMapper JSON = new ObjectMapper();

    private History() {
    }

    /** The Workload's name: {@code history-<i>}. */
    static String name(int i) {
        return "history-" + i;
    }

    /** The namespace of the {@code i}-th: round robin over the scenario's namespaces. */
    static String namespace(List<String> namespaces, int i) {
        return namespaces.get(i % namespaces.size());
    }

    /** The {@code i}-th Workload as a client creates it (no status), in namespace {@code ns}. */
    static String created(int i, String ns) {
        Workload wl = Serialization.unmarshal("""
                {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                 "metadata": {"name": "%s", "namespace": "%s", "labels": {"sluice.dev/bench": "history"}},
                 "spec": {"queueName": "%s", "priority": 0, "podSets": [{"name": "main", "count": 1,
                   "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox",
                     "resources": {"requests": {"cpu": "1"}}}]}}}]}}
                """.formatted(name(i), ns, BenchObjects.localQueue(ns).getMetadata().getName()), Workload.class);
        return Serialization.asJson(wl);
    }

    /** Its status once it ran: quota reserved and admitted in ClusterQueue {@code ns}, then finished, all at {@code at}. */
    static String status(String ns, String at) {
        return """
                {"conditions": [
                  {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "Quota reserved in ClusterQueue %1$s", "lastTransitionTime": "%2$s"},
                  {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "The workload is admitted", "lastTransitionTime": "%2$s"},
                  {"type": "Finished", "status": "True", "reason": "Succeeded", "message": "Finished by the benchmark's history", "lastTransitionTime": "%2$s"}],
                 "admission": {"clusterQueue": "%1$s", "podSetAssignments": [{"name": "main", "count": 1, "flavors": {"cpu": "%3$s"}, "resourceUsage": {"cpu": "1"}}]}}"""
                .formatted(ns, at, BenchObjects.FLAVOR);
    }

    /** An hour ago, to the second, as the conditions' lastTransitionTime. */
    static String finishedAt() {
        return Instant.now().minusSeconds(3600).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /**
     * The {@code i}-th Workload as the API server stores it once created and its status patched: what
     * {@link #created} was, with the metadata a create adds (uid, creation time, generation 1, resource version) and
     * the status.
     */
    static String stored(int i, String ns, long resourceVersion, String createdAt, String at) {
        try {
            ObjectNode wl = (ObjectNode) JSON.readTree(created(i, ns));
            ObjectNode meta = (ObjectNode) wl.get("metadata");
            meta.put("uid", UUID.randomUUID().toString());
            meta.put("creationTimestamp", createdAt);
            meta.put("generation", 1);
            meta.put("resourceVersion", String.valueOf(resourceVersion));
            wl.set("status", JSON.readTree(status(ns, at)));
            return JSON.writeValueAsString(wl);
        } catch (IOException e) {
            throw new IllegalStateException("the history's own Workload JSON does not parse: " + e, e);
        }
    }

    /** Stores the Workloads straight into the API server's store, each in one write, without a request each. */
    static void storeInto(LeanCrudDispatcher crud, List<String> namespaces, int count) {
        String createdAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String at = finishedAt();
        for (String ns : namespaces) {
            int first = namespaces.indexOf(ns);
            int here = count <= first ? 0 : (count - first + namespaces.size() - 1) / namespaces.size();
            crud.storeAll(WorkloadApi.collection(ns), here,
                    (k, rv) -> stored(first + k * namespaces.size(), ns, rv, createdAt, at));
        }
    }

    /**
     * Asks the benchmark's API server to store the Workloads itself; over HTTP one by one ({@link #store}) when it
     * cannot (fabric8's scanning store, {@code ApiServer --scan}). Returns how long it took, in seconds.
     */
    static double seed(WorkloadApi api, List<String> namespaces, int count) throws Exception {
        long start = System.nanoTime();
        String body = JSON.writeValueAsString(java.util.Map.of("count", count, "namespaces", namespaces));
        HttpResponse<String> r = api.http().send(HttpRequest.newBuilder(URI.create(api.url() + ApiServer.HISTORY_PATH))
                .timeout(Duration.ofMinutes(10)).header("User-Agent", ApiServer.BENCH_AGENT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 501) {
            System.err.println("history: " + r.body() + "; storing over HTTP instead");
            return store(api, namespaces, count);
        }
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the API server did not store the history: HTTP " + r.statusCode() + " " + r.body());
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Stores the Workloads over HTTP, a create and a status patch each, many at a time; returns the seconds it took. */
    static double store(WorkloadApi api, List<String> namespaces, int count) throws Exception {
        long start = System.nanoTime();
        Semaphore slots = new Semaphore(IN_FLIGHT);
        AtomicInteger failed = new AtomicInteger();
        String at = finishedAt();
        for (int i = 0; i < count; i++) {
            String ns = namespace(namespaces, i);
            String name = name(i);
            slots.acquire();
            String patch = "[{\"op\": \"add\", \"path\": \"/status\", \"value\": " + status(ns, at) + "}]";
            CompletableFuture<HttpResponse<String>> created = api.create(ns, created(i, ns));
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
