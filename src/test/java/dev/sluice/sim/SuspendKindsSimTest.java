package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} reads the kinds of issue 28 held by a suspend field (src/test/resources/jobs/): each is queued
 * with the pod sets the controller computes, and they run in quota order.
 */
class SuspendKindsSimTest {

    private static final String QUEUES = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: default-flavor}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ClusterQueue
            metadata: {name: cq}
            spec:
              namespaceSelector: {}
              resourceGroups:
              - coveredResources: [cpu, memory]
                flavors:
                - name: default-flavor
                  resources:
                  - {name: cpu, nominalQuota: "5"}
                  - {name: memory, nominalQuota: 64Gi}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: LocalQueue
            metadata: {name: lq, namespace: default}
            spec: {clusterQueue: cq}
            """;

    @Test
    void eachKindIsQueuedWithItsPodSets(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("0-queues.yaml"), QUEUES);
        int i = 1;
        for (String file : new String[] {"xgboostjob.yaml", "paddlejob.yaml", "jaxjob.yaml", "raycluster.yaml", "appwrapper.yaml", "rayservice.yaml"}) {
            Files.copy(Path.of("src/test/resources/jobs", file), dir.resolve(i++ + "-" + file));
        }
        Sim sim = Sim.run("-o", "json", dir.toString());
        assertThat(sim.exit()).as(sim.err()).isZero();
        // the XGBoostJob takes the whole quota (1 + 2 × 2 cpu): the other two wait for it, then run side by side
        assertThat(sim.events("Admitted", "XGBoostJob/default/xgboost-dist-iris").get(0).path("time").asDouble()).isZero();
        assertThat(sim.events("Admitted", "PaddleJob/default/paddle-simple-cpu").get(0).path("time").asDouble())
                .isEqualTo(60);
        assertThat(sim.events("Admitted", "JAXJob/default/jaxjob-simple").get(0).path("time").asDouble()).isEqualTo(60);
        assertThat(sim.events("Admitted", "XGBoostJob/default/xgboost-dist-iris").get(0).path("flavors").path("worker")
                .path("cpu").asText()).isEqualTo("default-flavor");
        // the RayCluster (head 1 + 2 + 2 cpu) waits for the others and then runs its simulated duration
        assertThat(sim.events("Admitted", "RayCluster/default/raycluster-sample").get(0).path("time").asDouble())
                .isEqualTo(120);
        assertThat(sim.events("Admitted", "RayCluster/default/raycluster-sample").get(0).path("flavors")
                .path("multi-host").path("cpu").asText()).isEqualTo("default-flavor");
        // the AppWrapper (master 1 + workers 2 + Job 2 cpu) comes last
        assertThat(sim.events("Admitted", "AppWrapper/default/aw-sample").get(0).path("time").asDouble())
                .isEqualTo(180);
        assertThat(sim.events("Admitted", "AppWrapper/default/aw-sample").get(0).path("flavors").path("aw-sample-2")
                .path("cpu").asText()).isEqualTo("default-flavor");
        // the RayService (head 1 + 1 + 3 cpu) after it
        assertThat(sim.events("Admitted", "RayService/default/rayservice-sample").get(0).path("time").asDouble())
                .isEqualTo(240);
        assertThat(sim.events("Admitted", "RayService/default/rayservice-sample").get(0).path("flavors")
                .path("group2").path("cpu").asText()).isEqualTo("default-flavor");
        assertThat(sim.summary().path("finished").asInt()).isEqualTo(6);
    }
}
