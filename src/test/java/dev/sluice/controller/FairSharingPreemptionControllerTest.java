package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fair-sharing preemption end to end (Kueue v0.19's default strategies, LessThanOrEqualToFinalShare first): Cohort
 * fsp-pool owns 4 cpu; ClusterQueues fsp-a (weight 2) and fsp-b (weight 1) own none, so whatever they run is
 * borrowed from the pool (lendable 4 cpu) and the preemptor is never within its nominal quota (no reclamation).
 *
 * fsp-a runs 4 one-cpu workloads: share 4/4 × 1000 / 2 = 500. b1 (1 cpu) arrives: fsp-b's share with it would be
 * 1/4 × 1000 / 1 = 250, fsp-a's after losing one 3/4 × 1000 / 2 = 375; 250 ≤ 375, so one of fsp-a's workloads is
 * preempted with reason InCohortFairSharing and b1 is admitted. b2 then asks for fsp-b's share to become 500 while
 * fsp-a would drop to 250 (and LessThanInitialShare: 500 is not below fsp-a's 375): nothing more is preempted, b2
 * waits. Equal weights would let b2 in; the weights decide.
 */
@QuarkusTest
@TestProfile(FairSharingProfile.class)
@WithKubernetesTestServer(setup = ApiServerRules.class)
class FairSharingPreemptionControllerTest {

    static final String NS = "fs-preemption";

    @Inject
    KubernetesClient client;

    @Test
    void theBorrowerAboveItsFairShareIsPreemptedByLessThanOrEqualToFinalShare() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("fsp-flavor", "{}")).create();
        client.resource(Queues.yaml(Cohort.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: fsp-pool}
                spec:
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: fsp-flavor
                      resources:
                      - {name: cpu, nominalQuota: "4"}
                """)).create();
        client.resource(queue("fsp-a", "2")).create();
        client.resource(queue("fsp-b", "1")).create();
        client.resource(Queues.localQueue(NS, "a", "fsp-a")).create();
        client.resource(Queues.localQueue(NS, "b", "fsp-b")).create();

        List<Workload> as = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            as.add(cluster.awaitWorkload(client.resource(workload("a" + i, "a")).create(), Cluster::admitted));
        }
        cluster.awaitClusterQueue("fsp-a", cq -> share(cq) == 500L);

        Workload b1 = cluster.awaitWorkload(client.resource(workload("b1", "b")).create(), Cluster::admitted);
        assertThat(b1.getStatus().getAdmission().getClusterQueue()).isEqualTo("fsp-b");

        List<Workload> preempted = new ArrayList<>();
        for (Workload a : as) {
            Workload now = cluster.workloadOf(a);
            if (Cluster.condition(now, "Preempted") != null) {
                preempted.add(now);
            }
        }
        assertThat(preempted).as("exactly one of fsp-a's workloads makes room").hasSize(1);
        Workload victim = preempted.get(0);
        Condition byFairSharing = Cluster.condition(victim, "Preempted");
        assertThat(byFairSharing.getStatus()).isEqualTo("True");
        assertThat(byFairSharing.getReason()).isEqualTo("InCohortFairSharing");
        assertThat(byFairSharing.getMessage()).startsWith("Preempted to accommodate a workload (UID: "
                + b1.getMetadata().getUid()).contains("due to Fair Sharing within the cohort");
        // evicted by the preemption and requeued: fsp-a's share is back at 375, fsp-b's 250
        Workload requeued = cluster.awaitWorkload(victim, w -> w.getStatus().getAdmission() == null
                && Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Condition evicted = Cluster.condition(requeued, "Evicted");
        assertThat(evicted).isNotNull();
        assertThat(evicted.getReason()).isEqualTo("Preempted");
        assertThat(evicted.getMessage()).isEqualTo(byFairSharing.getMessage());
        cluster.awaitClusterQueue("fsp-a", cq -> share(cq) == 375L);
        cluster.awaitClusterQueue("fsp-b", cq -> share(cq) == 250L);

        // b2 would make fsp-b's share 500 against fsp-a's 250 after a loss: neither strategy lets it preempt
        Workload b2 = cluster.awaitWorkload(client.resource(workload("b2", "b")).create(),
                w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Thread.sleep(2000);
        assertThat(Cluster.admitted(cluster.workloadOf(b2))).isFalse();
        long stillRunning = as.stream().map(cluster::workloadOf).filter(Cluster::admitted).count();
        assertThat(stillRunning).as("fsp-a keeps 3 of its 4").isEqualTo(3);
        for (Workload a : as) {
            if (!a.getMetadata().getName().equals(victim.getMetadata().getName())) {
                assertThat(Cluster.condition(cluster.workloadOf(a), "Preempted")).isNull();
            }
        }
    }

    private static ClusterQueue queue(String name, String weight) {
        return Queues.yaml(ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  cohortName: fsp-pool
                  namespaceSelector: {}
                  fairSharing: {weight: "%s"}
                  preemption: {reclaimWithinCohort: Any, withinClusterQueue: Never}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: fsp-flavor
                      resources:
                      - {name: cpu, nominalQuota: "0"}
                """.formatted(name, weight));
    }

    private static Workload workload(String name, String queue) {
        Workload wl = CohortTreeControllerTest.workload(name, queue, "1");
        wl.getMetadata().setNamespace(NS);
        return wl;
    }

    private static long share(ClusterQueue cq) {
        return cq.getStatus() == null || cq.getStatus().getFairSharing() == null
                || cq.getStatus().getFairSharing().getWeightedShare() == null ? -1
                : cq.getStatus().getFairSharing().getWeightedShare();
    }
}
