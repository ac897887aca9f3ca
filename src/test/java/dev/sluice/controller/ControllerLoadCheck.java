package dev.sluice.controller;

import dev.sluice.apiserver.ApiServerRules;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (no Test suffix): admits N Workloads created directly against the test API server and prints
 * the rate and heap. Run with {@code ./mvnw -o test -Dtest=ControllerLoadCheck -Dload.workloads=2000}.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ControllerLoadCheck {

    @Inject
    KubernetesClient client;

    @Test
    void admitMany() {
        int n = Integer.getInteger("load.workloads", 1000);
        Cluster cluster = new Cluster(client);
        cluster.namespace("load");
        client.resource(Queues.flavor("load-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("load-cq", "load-flavor", String.valueOf(n), "{}")).create();
        client.resource(Queues.localQueue("load", "jobs", "load-cq")).create();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            client.resource(Queues.yaml(Workload.class, """
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: Workload
                    metadata: {name: w%d, namespace: load}
                    spec:
                      queueName: jobs
                      podSets:
                      - name: main
                        count: 1
                        template: {spec: {containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}
                    """.formatted(i))).create();
        }
        long created = System.nanoTime();
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(200)).until(() -> client
                .resources(Workload.class).inNamespace("load").list().getItems().stream().filter(Cluster::admitted).count() == n);
        long admitted = System.nanoTime();
        System.gc();
        Runtime rt = Runtime.getRuntime();
        System.out.printf("LOAD %d workloads: created in %.1f s, all admitted %.1f s after the first; heap used %d MB%n", n,
                (created - start) / 1e9, (admitted - start) / 1e9, (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
}
