package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Admission fair sharing samples LocalQueue usage on a timer, as Kueue's LocalQueue reconciler requeues itself every
 * usageSamplingInterval: with one workload running and nothing else happening, consumedResources and lastUpdate
 * keep moving. The interval (3s) is longer than the controller's queue-status period (1s), so a status write's own
 * watch event comes too early to take a sample; without the timer lastUpdate would stay where the last event left it.
 */
@QuarkusTest
@TestProfile(AdmissionFairSharingTimerTest.Profile.class)
@WithKubernetesTestServer(setup = ApiServerRules.class)
class AdmissionFairSharingTimerTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.admission-fair-sharing.enabled", "true",
                    "sluice.admission-fair-sharing.usage-half-life-time", "10s",
                    "sluice.admission-fair-sharing.usage-sampling-interval", "3s");
        }
    }

    static final String NS = "afs-timer";

    @Inject
    KubernetesClient client;

    @Test
    void aQuietLocalQueueIsSampledEveryInterval() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("timer-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("timer-cq", "timer-flavor", "2", "{}")).create();
        client.resource(Queues.localQueue(NS, "steady", "timer-cq")).create();
        var wl = AdmissionFairSharingControllerTest.workload("steady-1", "steady");
        wl.getMetadata().setNamespace(NS);
        cluster.awaitWorkload(client.resource(wl).create(), Cluster::admitted);

        // from here on nothing changes in the cluster but Sluice's own LocalQueue status writes
        LocalQueue first = cluster.awaitLocalQueue(NS, "steady", lq -> cpu(lq) > 0);
        Instant firstUpdate = lastUpdate(first);
        double firstCpu = cpu(first);
        LocalQueue later = Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> client.resources(LocalQueue.class).inNamespace(NS).withName("steady").get(),
                        lq -> lastUpdate(lq).isAfter(firstUpdate.plusSeconds(5)));
        assertThat(cpu(later)).as("one cpu running: the decayed usage climbs towards 1").isGreaterThan(firstCpu)
                .isLessThanOrEqualTo(1.0);
    }

    private static double cpu(LocalQueue lq) {
        if (lq.getStatus() == null || lq.getStatus().getFairSharing() == null
                || lq.getStatus().getFairSharing().getAdmissionFairSharingStatus() == null) {
            return -1;
        }
        var q = lq.getStatus().getFairSharing().getAdmissionFairSharingStatus().getConsumedResources().get("cpu");
        return q == null ? 0 : q.getNumericalAmount().doubleValue();
    }

    private static Instant lastUpdate(LocalQueue lq) {
        return Instant.parse(lq.getStatus().getFairSharing().getAdmissionFairSharingStatus().getLastUpdate());
    }
}
