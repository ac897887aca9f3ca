package dev.sluice.controller.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.metrics.LeaderElectionMetrics;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Terms of leader election against the fabric8 mock API server: a restarted replica (new identity) leads once the
 * old term runs out, a released Lease is taken at once, a lost term is followed by a new one, the Lease is renewed
 * (its renewTime moves), and refused Lease requests make the replica unhealthy and are counted.
 */
@EnableKubernetesMockClient(crud = true)
class LeaderElectionTermsTest {

    static final String NS = "sluice-system";
    static final String LEASE = "sluice-controller";
    static final String PATH = "/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases/" + LEASE;

    KubernetesMockServer server;
    KubernetesClient client;
    final List<LeaderElection> elections = new ArrayList<>();

    static final class Counting implements LeaderElection.Terms {
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger ended = new AtomicInteger();

        @Override
        public void started() {
            started.incrementAndGet();
        }

        @Override
        public void ended() {
            ended.incrementAndGet();
        }

        @Override
        public void otherLeader(String identity) {
        }
    }

    @AfterEach
    void close() {
        elections.forEach(LeaderElection::close);
    }

    LeaderElection election(Duration leaseDuration, LeaderElection.Terms terms, LeaderElectionMetrics metrics) {
        LeaderElection e = new LeaderElection(client.getConfiguration(), NS, LEASE, leaseDuration, terms, metrics);
        elections.add(e);
        e.start();
        return e;
    }

    void holdLease(String holder, ZonedDateTime renewed, int seconds) {
        Lease lease = new LeaseBuilder().withNewMetadata().withNamespace(NS).withName(LEASE).endMetadata()
                .withNewSpec().withHolderIdentity(holder).withAcquireTime(renewed).withRenewTime(renewed)
                .withLeaseDurationSeconds(seconds).withLeaseTransitions(3).endSpec().build();
        // the elector renews meanwhile: retry on conflict, as another replica would
        await().ignoreExceptions().atMost(Duration.ofSeconds(15)).until(() -> {
            client.resource(lease).createOr(existing -> existing.update());
            return true;
        });
    }

    Lease lease() {
        return client.leases().inNamespace(NS).withName(LEASE).get();
    }

    @Test
    void aRestartedReplicaLeadsOnceThePreviousTermRunsOutAndKeepsRenewing() {
        Counting terms = new Counting();
        LeaderElection e = new LeaderElection(client.getConfiguration(), NS, LEASE, Duration.ofSeconds(2), terms, null);
        elections.add(e);
        // the previous incarnation of this pod held the Lease until it was killed, just now
        holdLease("sluice-0-previous", ZonedDateTime.now(ZoneOffset.UTC), 2);
        e.start();

        await().during(Duration.ofMillis(1000)).atMost(Duration.ofMillis(1500)).until(() -> terms.started.get() == 0);
        await().atMost(Duration.ofSeconds(15)).until(() -> terms.started.get() == 1);
        assertThat(e.leading()).isTrue();
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo(e.identity()).isNotEqualTo("sluice-0-previous");
        assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(4);

        // renewals move renewTime (the bug this guards against: leading on a Lease whose renewTime never moved)
        ZonedDateTime first = lease().getSpec().getRenewTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> lease().getSpec().getRenewTime().isAfter(first));
        assertThat(e.healthy()).isTrue();
        assertThat(terms.ended.get()).isZero();
    }

    @Test
    void onCloseTheLeaseIsReleasedAndAnotherReplicaLeadsAtOnce() {
        Counting a = new Counting();
        LeaderElection first = election(Duration.ofSeconds(30), a, null);
        await().atMost(Duration.ofSeconds(15)).until(() -> a.started.get() == 1);

        first.close();
        assertThat(a.ended.get()).isEqualTo(1);
        assertThat(lease().getSpec().getHolderIdentity()).isNullOrEmpty();

        // without the release the next replica would wait the whole lease duration (30 s; the bound below is less)
        Counting b = new Counting();
        LeaderElection second = election(Duration.ofSeconds(30), b, null);
        await().atMost(Duration.ofSeconds(15)).until(() -> b.started.get() == 1);
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo(second.identity());
    }

    @Test
    void aLostTermIsFollowedByANewTermUnderANewIdentity() {
        Counting terms = new Counting();
        LeaderElection e = election(Duration.ofSeconds(2), terms, null);
        await().atMost(Duration.ofSeconds(15)).until(() -> terms.started.get() == 1);
        String firstIdentity = e.identity();

        // another replica takes over (e.g. this one was partitioned away for longer than the lease)
        holdLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC), 2);
        await().atMost(Duration.ofSeconds(15)).until(() -> terms.ended.get() == 1);
        assertThat(e.leading()).isFalse();

        // its term runs out without renewal: this replica leads again, as a new candidate
        await().atMost(Duration.ofSeconds(20)).until(() -> terms.started.get() == 2);
        assertThat(e.identity()).isNotEqualTo(firstIdentity);
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo(e.identity());
    }

    @Test
    void forbiddenLeaseWritesMakeTheReplicaUnhealthyAndAreCounted() {
        holdLease("sluice-0-previous", ZonedDateTime.now(ZoneOffset.UTC).minusHours(1), 15);
        server.expect().patch().withPath(PATH).andReturn(403, new StatusBuilder().withStatus("Failure").withCode(403)
                .withReason("Forbidden").withMessage("leases.coordination.k8s.io \"" + LEASE + "\" is forbidden: User "
                        + "\"system:serviceaccount:sluice-system:sluice\" cannot patch resource \"leases\" in API group "
                        + "\"coordination.k8s.io\" in the namespace \"" + NS + "\"").build()).always();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Counting terms = new Counting();
        LeaderElection e = election(Duration.ofSeconds(15), terms, new LeaderElectionMetrics(registry));

        await().atMost(Duration.ofSeconds(20)).until(() -> !e.healthy());
        assertThat(e.problem()).contains("forbids").contains("cannot patch resource \"leases\"");
        assertThat(terms.started.get()).isZero(); // never "leads" on the Lease it could not write
        assertThat(registry.get("sluice_leader_election_failures_total").tag("code", "403").counter().count())
                .isGreaterThanOrEqualTo(1);
        assertThat(registry.get("sluice_leader_election_healthy").gauge().value()).isZero();
        assertThat(registry.get("leader_election_master_status").tag("name", LEASE).gauge().value()).isZero();
    }

    @Test
    void noSuccessfulLeaseRequestForLongerThanTheLeaseIsUnhealthy() {
        server.expect().get().withPath(PATH).andReturn(503, "unavailable").always();
        Counting terms = new Counting();
        LeaderElection e = election(Duration.ofSeconds(2), terms, null);

        assertThat(e.healthy()).isTrue(); // a fresh replica gets one lease duration
        await().atMost(Duration.ofSeconds(15)).until(() -> !e.healthy());
        assertThat(e.problem()).contains("no successful Lease request").contains("lease duration 2s");
    }
}
