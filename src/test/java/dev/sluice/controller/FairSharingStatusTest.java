package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * With fair sharing on, ClusterQueues and Cohorts carry Kueue's status.fairSharing.weightedShare and the gauges
 * kueue_cluster_queue_weighted_share / kueue_cohort_weighted_share report the same values; the scrape stays valid
 * for promtool.
 *
 * Tree: Cohort fs-org (root, own 2 cpu) ← Cohort fs-team (weight 2) ← ClusterQueue fs-a (2 cpu, weight 1), and
 * ClusterQueue fs-b (2 cpu) directly under fs-org: 6 cpu in all. fs-a running 5 cpu borrows 3 of the 6 the tree
 * could lend it: share 3/6 × 1000 / 1 = 500; fs-team borrows the same 3 of 6 with weight 2: 250; the root and fs-b 0.
 */
@QuarkusTest
@TestProfile(FairSharingProfile.class)
@WithKubernetesTestServer(setup = ApiServerRules.class)
class FairSharingStatusTest {

    static final String NS = "fair-sharing";

    @Inject
    KubernetesClient client;

    @Test
    void sharesAreWrittenToStatusAndGauges() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("fs-flavor", "{}")).create();
        client.resource(Queues.yaml(Cohort.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: fs-org}
                spec:
                  resourceGroups:
                  - coveredResources: [cpu, memory]
                    flavors:
                    - name: fs-flavor
                      resources:
                      - {name: cpu, nominalQuota: "2"}
                      - {name: memory, nominalQuota: "0"}
                """)).create();
        client.resource(Queues.yaml(Cohort.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: fs-team}
                spec: {parentName: fs-org, fairSharing: {weight: "2"}}
                """)).create();
        ClusterQueue a = Queues.cpuQueue("fs-a", "fs-flavor", "2", "{}");
        a.getSpec().setCohortName("fs-team");
        client.resource(a).create();
        ClusterQueue b = Queues.cpuQueue("fs-b", "fs-flavor", "2", "{}");
        b.getSpec().setCohortName("fs-org");
        client.resource(b).create();
        client.resource(Queues.localQueue(NS, "a", "fs-a")).create();

        // nothing borrowed yet: every share is 0, and written as 0 (fair sharing is on)
        cluster.awaitClusterQueue("fs-a", cq -> share(cq) != null && share(cq) == 0);
        awaitCohortShare("fs-team", 0);

        var wl = CohortTreeControllerTest.workload("big", "a", "5");
        wl.getMetadata().setNamespace(NS);
        cluster.awaitWorkload(client.resource(wl).create(), Cluster::admitted);
        cluster.awaitClusterQueue("fs-a", cq -> Long.valueOf(500).equals(share(cq)));
        cluster.awaitClusterQueue("fs-b", cq -> Long.valueOf(0).equals(share(cq)));
        awaitCohortShare("fs-team", 250);
        awaitCohortShare("fs-org", 0);

        String scrape = Awaitility.await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(Promtool::scrapeTextFormat, s -> sample(s, "kueue_cohort_weighted_share", "cohort", "fs-team") != null);
        assertThat(sample(scrape, "kueue_cohort_weighted_share", "cohort", "fs-team")).isEqualTo("250.0");
        assertThat(sample(scrape, "kueue_cohort_weighted_share", "cohort", "fs-org")).isEqualTo("0.0");
        assertThat(sample(scrape, "kueue_cluster_queue_weighted_share", "cluster_queue", "fs-a")).isEqualTo("500.0");
        assertThat(sample(scrape, "kueue_cluster_queue_weighted_share", "cluster_queue", "fs-b")).isEqualTo("0.0");
        Promtool.assertValid(scrape);
    }

    /** The value of the one sample of a family with exactly this label (the text format may end labels with ","). */
    static String sample(String scrape, String family, String label, String value) {
        for (String line : scrape.split("\n")) {
            String labels = "{" + label + "=\"" + value + "\"";
            if (line.startsWith(family + labels + "}") || line.startsWith(family + labels + ",}")) {
                return line.substring(line.indexOf('}') + 1).trim();
            }
        }
        return null;
    }

    private void awaitCohortShare(String name, long expected) {
        Awaitility.await().atMost(Cluster.TIMEOUT).pollInterval(Duration.ofMillis(50))
                .until(() -> client.resources(Cohort.class).withName(name).get(), c -> c != null && c.getStatus() != null
                        && c.getStatus().getFairSharing() != null
                        && Long.valueOf(expected).equals(c.getStatus().getFairSharing().getWeightedShare()));
    }

    private static Long share(ClusterQueue cq) {
        return cq.getStatus() == null || cq.getStatus().getFairSharing() == null ? null
                : cq.getStatus().getFairSharing().getWeightedShare();
    }
}
