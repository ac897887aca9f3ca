package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.conditions.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * Cohort objects end to end: Kueue's cohort-tree example (an organisation Cohort with its own quota, a team Cohort
 * under it, two ClusterQueues of the team) gives Kueue's admissions, borrowing through both levels and reclaim; a
 * cycle of parents makes the queue inactive with a condition naming the cycle, and breaking it revives the queue.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class CohortTreeControllerTest {

    static final String NS = "cohort-tree";

    @Inject
    KubernetesClient client;

    @Test
    void queuesBorrowThroughTheTreeAndReclaimTheirNominalQuota() {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        cluster.create(NS, cluster.load("/cohorts/kueue-cohort-tree.yaml"));

        // tree-a's 2 cpu + tree-b's 2 lent through tree-team + tree-org's own 4: 8 in all
        Workload a1 = cluster.awaitWorkload(client.resource(workload("a1", "a", "5")).create(), Cluster::admitted);
        Workload a2 = cluster.awaitWorkload(client.resource(workload("a2", "a", "3")).create(), Cluster::admitted);
        assertThat(a2.getStatus().getAdmission().getClusterQueue()).isEqualTo("tree-a");
        ClusterQueue borrowing = cluster.awaitClusterQueue("tree-a", cq -> cq.getStatus() != null
                && cq.getStatus().getFlavorsReservation() != null && !cq.getStatus().getFlavorsReservation().isEmpty()
                && "8".equals(cq.getStatus().getFlavorsReservation().get(0).getResources().get(0).getTotal().toString()));
        assertThat(borrowing.getStatus().getFlavorsReservation().get(0).getResources().get(0).getBorrowed())
                .hasToString("6");
        // fair sharing is off: Kueue writes no share
        assertThat(borrowing.getStatus().getFairSharing()).isNull();

        // tree-b asks for its nominal quota back: the newest of tree-a's workloads is preempted to reclaim it
        Workload b1 = cluster.awaitWorkload(client.resource(workload("b1", "b", "2")).create(), Cluster::admitted);
        assertThat(b1.getStatus().getAdmission().getClusterQueue()).isEqualTo("tree-b");
        Workload preempted = cluster.awaitWorkload(a2, w -> Cluster.condition(w, "Preempted") != null
                && "True".equals(Cluster.condition(w, "Preempted").getStatus()));
        assertThat(Cluster.condition(preempted, "Preempted").getReason()).isEqualTo("InCohortReclamation");
        assertThat(Cluster.admitted(cluster.workloadOf(a1))).isTrue();
        // requeued, it waits for quota (the eviction's message first, then the pending reason naming cpu)
        cluster.awaitWorkload(a2, w -> w.getStatus().getAdmission() == null
                && Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota")
                && Cluster.condition(w, "QuotaReserved").getMessage().contains("cpu"));

        // b1 done: a2 fits again
        client.resource(cluster.workloadOf(b1)).delete();
        cluster.awaitWorkload(a2, Cluster::admitted);

        // without tree-org's pool the subtree has 4 cpu: what runs keeps running, nothing more is admitted
        client.resources(Cohort.class).withName("tree-org").delete();
        Workload a3 = client.resource(workload("a3", "a", "1")).create();
        cluster.awaitWorkload(a3, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        assertThat(Cluster.admitted(cluster.workloadOf(a1))).isTrue();
        assertThat(Cluster.admitted(cluster.workloadOf(a2))).isTrue();
    }

    @Test
    void aCycleOfParentsMakesTheQueueInactiveUntilItIsBroken() {
        Cluster cluster = new Cluster(client);
        client.resource(Queues.flavor("cycle-flavor", "{}")).create();
        client.resource(cohort("cycle-x", "cycle-y")).create();
        client.resource(cohort("cycle-y", "cycle-x")).create();
        ClusterQueue cq = Queues.cpuQueue("cycle-cq", "cycle-flavor", "1", "{}");
        cq.getSpec().setCohortName("cycle-x");
        client.resource(cq).create();

        ClusterQueue inactive = cluster.awaitClusterQueue("cycle-cq",
                q -> active(q) != null && "CohortHasCycle".equals(active(q).getReason()));
        assertThat(active(inactive).getStatus()).isEqualTo("False");
        assertThat(active(inactive).getMessage())
                .isEqualTo("Can't admit new workloads: cohort cycle-x is in a cycle of parents: cycle-x -> cycle-y -> cycle-x.");

        client.resources(Cohort.class).withName("cycle-y").edit(c -> {
            c.getSpec().setParentName(null);
            return c;
        });
        ClusterQueue ready = cluster.awaitClusterQueue("cycle-cq", q -> active(q) != null && "True".equals(active(q).getStatus()));
        assertThat(active(ready).getReason()).isEqualTo("Ready");
    }

    static Cohort cohort(String name, String parent) {
        return Queues.yaml(Cohort.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: %s}
                spec: {parentName: %s}
                """.formatted(name, parent));
    }

    private static Condition active(ClusterQueue cq) {
        return cq.getStatus() == null ? null : Conditions.find(cq.getStatus().getConditions(), "Active");
    }

    static Workload workload(String name, String queue, String cpu) {
        return Queues.bareWorkload(NS, name, queue, cpu);
    }
}
