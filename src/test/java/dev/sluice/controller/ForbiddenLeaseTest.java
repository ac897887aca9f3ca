package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.app.ManagementEndpoint;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The RBAC of issue 13: the API server forbids PATCH on the Lease. The replica must not look healthy: readiness is
 * DOWN naming the refused request, the metrics say it does not lead, is not healthy and count the refusals.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ForbiddenLeaseTest.ForbidLeasePatches.class)
class ForbiddenLeaseTest {

    static final String PATH = "/apis/coordination.k8s.io/v1/namespaces/default/leases/sluice-controller";

    /** The Lease of a replica that died an hour ago; taking it over needs a PATCH, which is forbidden. */
    public static class ForbidLeasePatches implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            ZonedDateTime anHourAgo = ZonedDateTime.now(ZoneOffset.UTC).minusHours(1);
            server.getClient().resource(new LeaseBuilder().withNewMetadata().withNamespace("default")
                    .withName("sluice-controller").endMetadata().withNewSpec().withHolderIdentity("sluice-old-pod")
                    .withAcquireTime(anHourAgo).withRenewTime(anHourAgo).withLeaseDurationSeconds(15).endSpec().build())
                    .create();
            server.expect().patch().withPath(PATH).andReturn(403, new StatusBuilder().withStatus("Failure")
                    .withCode(403).withReason("Forbidden").withMessage("leases.coordination.k8s.io \"sluice-controller\""
                            + " is forbidden: User \"system:serviceaccount:sluice-system:sluice\" cannot patch resource"
                            + " \"leases\" in API group \"coordination.k8s.io\" in the namespace \"default\"").build())
                    .always();
        }
    }

    @Inject
    ControllerRuntime runtime;

    @Test
    void readinessIsDownAndTheMetricsSayWhy() throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(() -> ManagementEndpoint.get("/q/health/ready").statusCode() == 503);
        String ready = ManagementEndpoint.get("/q/health/ready").body();
        assertThat(ready).contains("\"sluice-controller\"").contains("cannot patch resource \\\"leases\\\"")
                .contains("grant get, list, watch, create, update, patch, delete on leases");
        assertThat(runtime.role()).isNotEqualTo(ControllerRuntime.Role.leading);
        // still alive: a restart would not grant the missing permission
        assertThat(ManagementEndpoint.get("/q/health/live").statusCode()).isEqualTo(200);

        String metrics = ManagementEndpoint.get("/q/metrics").body();
        assertThat(metrics)
                .containsPattern("leader_election_master_status\\{name=\"sluice-controller\",?} 0\\.0")
                .containsPattern("sluice_leader_election_healthy\\{name=\"sluice-controller\",?} 0\\.0")
                .containsPattern("sluice_leader_election_failures_total\\{code=\"403\",name=\"sluice-controller\",?} "
                        + "[1-9]\\d*\\.0");
    }
}
