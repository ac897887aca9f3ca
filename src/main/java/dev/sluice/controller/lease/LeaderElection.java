package dev.sluice.controller.lease;

import dev.sluice.metrics.LeaderElectionMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Takes part in leader election on a Lease, one term after another, on a Kubernetes client of its own with its own
 * HTTP client and event-loop thread ({@link LeaseClient}), so neither a backlog of the controller's writes nor an
 * informer blocking a shared event loop can delay a renewal and cost the term.
 *
 * <p>fabric8 7.4's elector runs once and tells "leading" as soon as it <em>reads</em> a Lease naming its own identity,
 * before any write succeeded. So each term has an identity of its own (pod name and a random part): a new elector
 * after a lost term, or a restarted pod, never mistakes the Lease of an earlier term for its own; it waits for that
 * term to run out, as any other replica would, and leads only once its own write succeeded. A lost term is followed by
 * a new elector; on shutdown the engine stops first and the Lease is then released (holder cleared), so a restarted
 * or another replica takes over at once instead of after the lease duration.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LeaderElection.class);

    /** What the runtime does when a term starts or ends. */
    public interface Terms {
        void started();

        void ended();

        /** Another replica leads (identity) or the Lease is free (null or empty). */
        void otherLeader(String identity);
    }

    private final String namespace;
    private final String leaseName;
    private final Duration leaseDuration;
    private final Duration renewDeadline;
    private final Duration retryPeriod;
    private final Terms terms;
    private final LeaderElectionMetrics metrics;
    private final LeaseClient leaseClient;
    private final LeaseHealth health;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sluice-leader-election");
        t.setDaemon(true);
        return t;
    });

    private Term current;
    private boolean closed;

    /** One elector and its identity. */
    private final class Term {
        final String identity = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("sluice") + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        volatile boolean leading;
        CompletableFuture<?> future;
    }

    public LeaderElection(Config clientConfig, String namespace, String leaseName, Duration leaseDuration, Terms terms,
            LeaderElectionMetrics metrics) {
        this.namespace = namespace;
        this.leaseName = leaseName;
        this.leaseDuration = leaseDuration;
        this.renewDeadline = leaseDuration.multipliedBy(2).dividedBy(3);
        this.retryPeriod = leaseDuration.dividedBy(7);
        this.terms = terms;
        this.metrics = metrics;
        this.health = new LeaseHealth(Clock.systemUTC(), leaseDuration);
        this.leaseClient = new LeaseClient(leaseClientConfig(clientConfig, renewDeadline));
        if (metrics != null) {
            metrics.register(leaseName, this::leading, health::healthy);
        }
    }

    /**
     * The controller's connection settings, with a request timeout well inside the renew deadline and no retries of
     * its own (the elector retries every retry period; a request stuck in back-off would only use up the deadline).
     */
    static Config leaseClientConfig(Config base, Duration renewDeadline) {
        Config config = new ConfigBuilder(base).build();
        config.setRequestTimeout((int) Math.min(config.getRequestTimeout() <= 0 ? Integer.MAX_VALUE
                : config.getRequestTimeout(), renewDeadline.toMillis() / 2));
        config.setRequestRetryBackoffLimit(0);
        config.setUserAgent("sluice-leader-election");
        return config;
    }

    public synchronized void start() {
        if (closed || current != null) {
            return;
        }
        Term term = new Term();
        current = term;
        var config = new LeaderElectionConfigBuilder()
                .withName(leaseName)
                .withLock(new ObservedLeaseLock(new LeaseLock(namespace, leaseName, term.identity), leaseDuration,
                        Clock.systemUTC(), health, code -> {
                            if (metrics != null) {
                                metrics.failed(leaseName, code);
                            }
                        }))
                .withLeaseDuration(leaseDuration)
                .withRenewDeadline(renewDeadline)
                .withRetryPeriod(retryPeriod)
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(() -> started(term), () -> ended(term), leader -> {
                    if (!term.identity.equals(leader)) {
                        terms.otherLeader(leader);
                    }
                }))
                .build();
        LOG.debugf("electing on Lease %s/%s as %s", namespace, leaseName, term.identity);
        term.future = leaseClient.client().leaderElector().withConfig(config).build().start();
    }

    private void started(Term term) {
        synchronized (this) {
            if (term != current) {
                return; // an elector already given up
            }
            term.leading = true;
        }
        LOG.infof("leading (Lease %s/%s, identity %s)", namespace, leaseName, term.identity);
        terms.started();
    }

    private void ended(Term term) {
        boolean again;
        synchronized (this) {
            boolean wasLeading = term.leading;
            term.leading = false;
            if (term != current) {
                return;
            }
            current = null;
            again = !closed;
            if (wasLeading && again) {
                LOG.warnf("lost the Lease %s/%s (identity %s): admitting stops; standing by for a new term", namespace,
                        leaseName, term.identity);
            } else if (wasLeading) {
                LOG.infof("released the Lease %s/%s (identity %s)", namespace, leaseName, term.identity);
            }
        }
        terms.ended();
        if (again) {
            // fabric8 calls this from inside the ending elector: give that elector up (it may go on trying under the
            // old identity) and start the next one, from our own thread
            try {
                scheduler.execute(() -> {
                    CompletableFuture<?> f = term.future;
                    if (f != null) {
                        f.cancel(true);
                    }
                });
                scheduler.schedule(this::start, retryPeriod.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // closed meanwhile: no new term
            }
        }
    }

    boolean leading() {
        Term term;
        synchronized (this) {
            term = current;
        }
        return term != null && term.leading;
    }

    /** The identity of the current term's elector (a new one each term), or null between terms. */
    synchronized String identity() {
        return current == null ? null : current.identity;
    }

    boolean healthy() {
        return health.healthy();
    }

    /** Why this replica cannot take part in the election, or null. */
    public String problem() {
        return health.problem();
    }

    /** Ends the current term (releasing the Lease if this replica holds it) and stops electing. */
    @Override
    public void close() {
        Term term;
        synchronized (this) {
            closed = true;
            term = current;
        }
        if (term != null && term.future != null) {
            term.future.cancel(true); // fabric8 releases the Lease (holder cleared) before it returns
        }
        scheduler.shutdownNow();
        leaseClient.close();
    }
}
