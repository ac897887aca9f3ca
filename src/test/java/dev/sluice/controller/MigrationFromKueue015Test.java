package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.apiserver.StoredAsV1beta1;
import dev.sluice.webhook.OwnHttpsPort;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Issue 25: a cluster that ran Kueue 0.15 or older, where every queue object and Workload is still stored as v1beta1,
 * and the default single-process install (mode all). The API server converts them through the CRDs' webhook, which is
 * this application's own {@code /convert}, so the controller can list them only once its HTTPS port listens; a start
 * that listed first got HTTP 500 for every kind, stopped the operator and exited 1, on every start.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = MigrationFromKueue015Test.StoredByKueue015.class)
@QuarkusTestResource(value = OwnHttpsPort.class, restrictToAnnotatedClass = true)
class MigrationFromKueue015Test {

    /** What the rule converted, for the test (the rule lives as long as the test API server). */
    static volatile StoredAsV1beta1 stored;

    /** The objects as Kueue 0.15 stored them, behind the test API server's conversion through the application. */
    public static class StoredByKueue015 implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            ApiServerRules.install(server.getKubernetesMockServer());
            KubernetesClient client = server.getClient();
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(KueueV015Objects.NS)
                    .endMetadata().build()).create();
            Job running = client.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                    .resource(KueueV015Objects.runningJob()).create();
            running = client.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                    .resource(KueueV015Objects.withRunningStatus(running)).updateStatus();
            stored = StoredAsV1beta1.install(server.getKubernetesMockServer(), OwnHttpsPort::convertUrl,
                    OwnHttpsPort.certificate(), KueueV015Objects.objects(running));
        }
    }

    @Inject
    KubernetesClient client;

    @Inject
    ControllerRuntime runtime;

    @Test
    void theControllerStartsOnObjectsStoredAsV1beta1ConvertedByItsOwnWebhookAndKeepsTheAdmission() throws Exception {
        await().atMost(Cluster.TIMEOUT).until(() -> ManagementEndpoint.get("/q/health/ready").statusCode() == 200);
        assertThat(runtime.role()).isEqualTo(ControllerRuntime.Role.leading);
        // every kind went through this application's /convert, none was answered with a failed call
        for (String plural : new String[] {"resourceflavors", "clusterqueues", "localqueues", "workloads",
                "workloadpriorityclasses"}) {
            assertThat(stored.converted(plural)).as(plural).isPositive();
            assertThat(stored.failedCalls(plural)).as(plural).isZero();
        }

        // the Workload Kueue admitted keeps its admission, and its Job runs on
        Cluster cluster = new Cluster(client);
        Job running = client.batch().v1().jobs().inNamespace(KueueV015Objects.NS).withName(KueueV015Objects.RUNNING).get();
        Workload migrated = client.resources(Workload.class).inNamespace(KueueV015Objects.NS)
                .withName(KueueV015Objects.workloadName(running)).get();
        assertThat(migrated.getStatus().getAdmission().getClusterQueue()).isEqualTo(KueueV015Objects.CLUSTER_QUEUE);
        assertThat(Cluster.isTrue(migrated, "Admitted")).isTrue();
        assertThat(migrated.getSpec().getPriorityClassRef().getName()).isEqualTo(KueueV015Objects.PRIORITY_CLASS);
        assertThat(running.getSpec().getSuspend()).isFalse();
        assertThat(Cluster.isTrue(migrated, "Evicted")).isFalse();

        // its 2 cpu are counted again: of the 3 cpu, a 2-cpu job waits and a 1-cpu job is admitted
        Job two = client.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                .resource(KueueV015Objects.job("two", "2", true)).create();
        cluster.awaitWorkload(two, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Job one = client.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                .resource(KueueV015Objects.job("one", "1", true)).create();
        cluster.awaitWorkload(one, Cluster::admitted);
        assertThat(cluster.workloadOf(two).getStatus().getAdmission()).isNull();
        Workload still = client.resources(Workload.class).inNamespace(KueueV015Objects.NS)
                .withName(KueueV015Objects.workloadName(running)).get();
        assertThat(still.getStatus().getAdmission()).isNotNull();
        assertThat(Cluster.isTrue(still, "Evicted")).isFalse();
        assertThat(client.batch().v1().jobs().inNamespace(KueueV015Objects.NS).withName(KueueV015Objects.RUNNING).get()
                .getSpec().getSuspend()).isFalse();
        assertThat(Cluster.condition(still, "QuotaReserved").getLastTransitionTime())
                .isEqualTo(Cluster.condition(migrated, "QuotaReserved").getLastTransitionTime());
        ClusterQueue cq = client.resources(ClusterQueue.class).withName(KueueV015Objects.CLUSTER_QUEUE).get();
        // v1beta1's Borrow, as the webhook converted it
        assertThat(cq.getSpec().getFlavorFungibility().getWhenCanBorrow())
                .isEqualTo(dev.sluice.api.v1beta2.WhenCanBorrow.MayStopSearch);
    }
}
