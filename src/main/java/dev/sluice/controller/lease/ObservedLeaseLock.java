package dev.sluice.controller.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.function.IntConsumer;

/**
 * fabric8's LeaseLock, with the outcome of every request told to {@link LeaseHealth}: fabric8's elector only logs a
 * refused request and tries again, so without this a replica that can never lead looks like a healthy standby.
 * fabric8 7.4's attempt is: get; then create (no Lease), or a JSON merge patch (renew, take over an expired or
 * released Lease, release); nothing more when another replica holds a running term.
 */
final class ObservedLeaseLock implements Lock {

    private final LeaseLock lease;
    private final Duration leaseDuration;
    private final Clock clock;
    private final LeaseHealth health;
    private final IntConsumer failed;

    ObservedLeaseLock(LeaseLock lease, Duration leaseDuration, Clock clock, LeaseHealth health, IntConsumer failed) {
        this.lease = lease;
        this.leaseDuration = leaseDuration;
        this.clock = clock;
        this.health = health;
        this.failed = failed;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
        LeaderElectionRecord record = observe(() -> lease.get(client));
        if (record != null && heldByAnotherRunningTerm(record)) {
            health.good(); // a standby's attempt ends here: the elector waits for that term to end
        }
        return record;
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
        observe(() -> {
            lease.create(client, record);
            return null;
        });
        health.good();
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
        observe(() -> {
            lease.update(client, record);
            return null;
        });
        health.good();
    }

    @Override
    public String identity() {
        return lease.identity();
    }

    @Override
    public String describe() {
        return lease.describe();
    }

    /** As fabric8's elector decides it will not write: held by someone else and renewed within the lease duration. */
    private boolean heldByAnotherRunningTerm(LeaderElectionRecord record) {
        String holder = record.getHolderIdentity();
        ZonedDateTime renewed = record.getRenewTime();
        return holder != null && !holder.isEmpty() && !holder.equals(lease.identity()) && renewed != null
                && !ZonedDateTime.now(clock).isAfter(renewed.plus(leaseDuration));
    }

    private <T> T observe(java.util.function.Supplier<T> request) {
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            failed.accept(e.getCode()); // counted first: whoever sees the replica unhealthy finds the failure counted
            health.bad(e.getCode(), e.getStatus() != null && e.getStatus().getMessage() != null
                    ? e.getStatus().getMessage() : String.valueOf(e.getMessage()));
            throw e;
        } catch (RuntimeException e) {
            failed.accept(0);
            health.bad(0, e.toString());
            throw e;
        }
    }
}
