package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** sluice.kube-queue-compat=false and sluice.integrations.tfjob.enabled=false: such jobs are left alone. */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(IntegrationSwitchesTest.Switches.class)
class IntegrationSwitchesTest {

    public static class Switches implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.kube-queue-compat", "false", "sluice.integrations.tfjob.enabled", "false");
        }
    }

    static final String NS = "switches";
    static final JobKinds KINDS = JobKinds.standard();

    @Inject
    KubernetesClient client;
    @Inject
    ControllerRuntime runtime;

    @Test
    void compatOffAndADisabledKindLeaveTheJobsAlone() {
        Cluster cluster = new Cluster(client);
        KINDS.all().forEach(cluster::registerCrd); // installed, but switched off
        // the CRDs are found one recheck at a time: wait for every enabled kind, then check tfjob stays unwatched
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.watchedKinds().containsAll(
                List.of("job", "jobset", "pytorchjob", "mpijob", "rayjob", "sparkapplication", "workflow")));
        assertThat(runtime.watchedKinds()).doesNotContain("tfjob").contains("job", "jobset", "workflow");
        cluster.namespace(NS);
        client.resource(Queues.flavor("switch-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("switches-cq", "switch-flavor", "100", "{}")).create();
        client.resource(Queues.localQueue(NS, "default", "switches-cq")).create();
        client.resource(Queues.localQueue(NS, "lq", "switches-cq")).create();

        GenericKubernetesResource ackJob = create(seed("job-queued.yaml", "ack-held", null));
        GenericKubernetesResource tfJob = create(seed("tfjob-queued.yaml", "tf", "lq"));
        // a labeled Job after them: once it is admitted, the controller has seen the two before it
        GenericKubernetesResource sentinel = create(seed("job-queued.yaml", "sentinel", "lq"));
        cluster.awaitWorkload(sentinel, Cluster::admitted);

        assertThat(cluster.workloadOf(ackJob)).as("compat off: no Workload for a job held the ack way").isNull();
        assertThat(cluster.workloadOf(tfJob)).as("TFJob switched off: no Workload").isNull();
        assertThat(Cluster.suspended(get(ackJob))).isTrue();
        assertThat(get(tfJob).getMetadata().getAnnotations()).containsEntry(WellKnown.ACK_SUSPEND, "true");
        assertThat(cluster.events(ackJob)).isEmpty();
    }

    private GenericKubernetesResource seed(String file, String name, String queue) {
        try (InputStream in = getClass().getResourceAsStream("/seeds/ack-kube-queue/" + file)) {
            GenericKubernetesResource job = Serialization.unmarshal(in, GenericKubernetesResource.class);
            job.getMetadata().setGenerateName(null);
            job.getMetadata().setName(name);
            job.getMetadata().setNamespace(NS);
            if (queue != null) {
                job.getMetadata().setLabels(new HashMap<>(Map.of(WellKnown.QUEUE_NAME, queue)));
            }
            return job;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private GenericKubernetesResource create(GenericKubernetesResource job) {
        JobKind kind = KINDS.forJob(job).orElseThrow();
        return client.genericKubernetesResources(ClusterCache.context(kind)).inNamespace(NS).resource(job).create();
    }

    private GenericKubernetesResource get(GenericKubernetesResource job) {
        JobKind kind = KINDS.forJob(job).orElseThrow();
        return client.genericKubernetesResources(ClusterCache.context(kind)).inNamespace(NS)
                .withName(job.getMetadata().getName()).get();
    }
}
