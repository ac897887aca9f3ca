package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: the Lease is renewed on threads of its own. fabric8's informers fill their stores on Quarkus's Vert.x
 * event loops, which every client built with the default factory shares; here every one of those loops is blocked
 * for three lease durations (far past the renew deadline), as a large initial LIST did at start-up, and the Lease must
 * go on being renewed by the same term.
 */
@QuarkusTest
@TestProfile(LeaseOwnThreadsTest.ShortLease.class)
@WithKubernetesTestServer(setup = ApiServerRules.class)
class LeaseOwnThreadsTest {

    static final Duration LEASE = Duration.ofSeconds(3);

    /** A short lease, so the renew deadline (2 s) is well inside the blocked time. */
    public static class ShortLease implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.leader-election.lease-duration", LEASE.toSeconds() + "s");
        }
    }

    @Inject
    KubernetesClient client;

    @Inject
    Vertx quarkusVertx;

    @Inject
    ControllerRuntime runtime;

    @Test
    void theLeaseIsRenewedWhileEveryEventLoopOfTheControllersClientIsBlocked() throws Exception {
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        // the test reads the Lease on a Vert.x of its own too, or it would be blocked with the controller
        try (KubernetesClient reader = new KubernetesClientBuilder().withConfig(client.getConfiguration())
                .withHttpClientFactory(new VertxHttpClientFactory()).build()) {
            Lease before = lease(reader);
            String holder = before.getSpec().getHolderIdentity();
            assertThat(holder).isNotBlank();

            Set<ZonedDateTime> renewals = new TreeSet<>();
            List<ControllerRuntime.Role> roles = new ArrayList<>();
            try (BlockedEventLoops loops = BlockedEventLoops.block(quarkusVertx, LEASE.multipliedBy(10))) {
                long until = System.nanoTime() + LEASE.multipliedBy(3).toNanos();
                while (System.nanoTime() < until) {
                    Lease now = lease(reader);
                    assertThat(now.getSpec().getHolderIdentity()).as("the same term holds the Lease").isEqualTo(holder);
                    renewals.add(now.getSpec().getRenewTime());
                    roles.add(runtime.role());
                    Thread.sleep(200);
                }
                assertThat(loops.stillBlocked()).as("the loops were blocked the whole time").isTrue();
            }
            // a renewal every retry period (3 s / 7); a lost term would have stopped them after the 2 s deadline
            renewals.remove(before.getSpec().getRenewTime());
            assertThat(renewals).as("renewals while the loops were blocked").hasSizeGreaterThanOrEqualTo(4);
            assertThat(roles).containsOnly(ControllerRuntime.Role.leading);
        }
        await().atMost(Cluster.TIMEOUT).until(runtime::ready);
        assertThat(runtime.role()).isEqualTo(ControllerRuntime.Role.leading);
    }

    private static Lease lease(KubernetesClient reader) {
        return reader.leases().inNamespace("default").withName("sluice-controller").get();
    }
}
