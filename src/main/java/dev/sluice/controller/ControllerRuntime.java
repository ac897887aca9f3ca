package dev.sluice.controller;

import dev.sluice.Integrations;
import dev.sluice.OperatorLifecycle;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.lease.LeaderElection;
import dev.sluice.controller.session.AdmissionFairSharingConfig;
import dev.sluice.controller.session.FairSharingConfig;
import dev.sluice.controller.session.FinishedRuns;
import dev.sluice.controller.session.ObjectRetentionConfig;
import dev.sluice.controller.session.Session;
import dev.sluice.controller.session.WaitForPodsReadyConfig;
import dev.sluice.controller.sync.EngineLoop;
import dev.sluice.controller.write.EventRate;
import dev.sluice.controller.write.WriteSettings;
import dev.sluice.controller.write.Writes;
import dev.sluice.jobs.JobKinds;
import dev.sluice.metrics.AdmissionEvents;
import dev.sluice.metrics.LeaderElectionMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Runs the controller when the mode includes it: takes part in leader election (a Lease), and while leading runs
 * one {@link EngineLoop} session built afresh from the cluster. Losing the lease stops the session at once, so two
 * replicas never admit at the same time; a new term starts a new session.
 */
@ApplicationScoped
public class ControllerRuntime {

    private static final Logger LOG = Logger.getLogger(ControllerRuntime.class);
    static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    public enum Role { off, electing, leading, standby }

    private final OperatorLifecycle lifecycle;
    private final KubernetesClient client;
    private final AdmissionEvents metrics;
    private final boolean leaderElection;
    private final String leaseName;
    private final Optional<String> leaseNamespace;
    private final Duration leaseDuration;
    private final JobKinds kinds;
    private final boolean kubeQueueCompat;
    private final Duration crdRecheck;
    private final WriteSettings writeSettings;
    private final LeaderElectionMetrics electionMetrics;

    private volatile Role role = Role.off;
    private volatile EngineLoop loop;
    private volatile LeaderElection election;
    private volatile boolean stopping;
    /** The controller began (after the operator started): until then a controller mode is not ready. */
    private volatile boolean begun;
    private volatile Function<String, Optional<Integer>> workloadPriorityClasses = name -> Optional.empty();
    @jakarta.inject.Inject
    Clock clock;
    @jakarta.inject.Inject
    WaitForPodsReadyConfig readiness;
    /** Objects per page of each informer's initial LIST (limit/continue), as Kueue's and client-go's 500. */
    @jakarta.inject.Inject
    @ConfigProperty(name = "sluice.controller.list-page-size", defaultValue = "500")
    long listPageSize;
    @jakarta.inject.Inject
    ObjectRetentionConfig retention;
    @jakarta.inject.Inject
    FairSharingConfig fairSharing;
    @jakarta.inject.Inject
    AdmissionFairSharingConfig admissionFairSharing;

    public ControllerRuntime(OperatorLifecycle lifecycle, KubernetesClient client, AdmissionEvents metrics,
            LeaderElectionMetrics electionMetrics, Integrations integrations,
            @ConfigProperty(name = "sluice.leader-election.enabled", defaultValue = "true") boolean leaderElection,
            @ConfigProperty(name = "sluice.leader-election.lease-name", defaultValue = "sluice-controller") String leaseName,
            @ConfigProperty(name = "sluice.leader-election.namespace") Optional<String> leaseNamespace,
            @ConfigProperty(name = "sluice.leader-election.lease-duration", defaultValue = "15s") Duration leaseDuration,
            @ConfigProperty(name = "sluice.controller.crd-recheck", defaultValue = "30s") Duration crdRecheck,
            @ConfigProperty(name = "sluice.controller.write-concurrency", defaultValue = "4") int writeConcurrency,
            @ConfigProperty(name = "sluice.controller.pending-status.delay", defaultValue = "500ms") Duration pendingDelay,
            @ConfigProperty(name = "sluice.controller.pending-status.refresh", defaultValue = "30s") Duration pendingRefresh,
            @ConfigProperty(name = "sluice.events.qps", defaultValue = "20") double eventsQps,
            @ConfigProperty(name = "sluice.events.burst", defaultValue = "30") int eventsBurst) {
        this.lifecycle = lifecycle;
        this.client = client;
        // the meters are another module's bean; without it (e.g. a build without metrics) nothing is measured
        this.metrics = metrics;
        this.electionMetrics = electionMetrics;
        this.leaderElection = leaderElection;
        this.leaseName = leaseName;
        this.leaseNamespace = leaseNamespace;
        this.leaseDuration = leaseDuration;
        this.crdRecheck = crdRecheck;
        this.writeSettings = new WriteSettings(writeConcurrency, pendingDelay, pendingRefresh,
                new EventRate(eventsQps, eventsBurst));
        this.kinds = integrations.kinds();
        this.kubeQueueCompat = integrations.kubeQueueCompat();
    }

    /** Once OperatorLifecycle started the operator (after the HTTPS port opened, in mode all), on its start thread. */
    void onOperatorStarted(@Observes OperatorLifecycle.Started event) {
        begin();
    }

    private synchronized void begin() {
        if (!lifecycle.mode().runsController() || stopping || begun) {
            return;
        }
        if (leaderElection) {
            role = Role.electing;
            elect();
        } else {
            startSession();
        }
        begun = true;
    }

    /**
     * Waits until this replica settled after its start: it stands by, or it leads and its first engine is rebuilt (or
     * failed); false if not within {@code timeout}. Nothing in the controller waits for this (readiness tells it);
     * tests start once it is true, as they would against a replica that reports ready.
     */
    public boolean awaitSettled(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        EngineLoop first = loop;
        while (first == null && (!begun || role == Role.electing) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            first = loop;
        }
        if (first != null) {
            return first.awaitRebuilt(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        return begun && role != Role.electing;
    }

    /** The engine stops before the Lease is released, so the next leader never admits alongside this one. */
    void onStop(@Observes ShutdownEvent event) {
        synchronized (this) {
            stopping = true;
        }
        stopSession();
        LeaderElection e = election;
        if (e != null) {
            e.close();
        }
    }

    private void elect() {
        String namespace = leaseNamespace.orElseGet(ControllerRuntime::podNamespace);
        election = new LeaderElection(client.getConfiguration(), namespace, leaseName, leaseDuration,
                new LeaderElection.Terms() {
                    @Override
                    public void started() {
                        if (!stopping) {
                            startSession();
                        }
                    }

                    @Override
                    public void ended() {
                        stopSession();
                        if (!stopping) {
                            role = Role.electing;
                        }
                    }

                    @Override
                    public void otherLeader(String identity) {
                        if (role != Role.leading) {
                            role = identity == null || identity.isEmpty() ? Role.electing : Role.standby;
                        }
                    }
                }, electionMetrics);
        election.start();
    }

    private static String podNamespace() {
        String env = System.getenv("POD_NAMESPACE");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            if (Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)) {
                return Files.readString(SERVICE_ACCOUNT_NAMESPACE).trim();
            }
        } catch (java.io.IOException e) {
            // fall through
        }
        return "default";
    }

    private synchronized void startSession() {
        stopSession();
        EngineLoop next = new EngineLoop(l -> new Session(client, kinds, kubeQueueCompat, crdRecheck, metrics, clock,
                name -> workloadPriorityClasses.apply(name), l::submit, l::submit, l::retry, l::runOnEngine, writeSettings,
                readiness, listPageSize, retention.policy(), fairSharing.settings(), journal,
                admissionFairSharing.settings(), finishedRuns), 60);
        loop = next;
        role = Role.leading;
        next.start();
    }

    private synchronized void stopSession() {
        EngineLoop current = loop;
        loop = null;
        if (current != null) {
            current.close();
        }
        if (role == Role.leading) {
            role = Role.off;
        }
    }

    /**
     * Drops the engine and every cache and builds them again from the cluster, as a restarted replica would (used by
     * tests; an operator can get the same by deleting the pod). Returns once the new engine is rebuilt.
     */
    public boolean restart(Duration timeout) throws InterruptedException {
        startSession();
        return loop.awaitRebuilt(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The integration names of the job kinds the current session watches (switched on and served by the cluster);
     * empty when not leading.
     */
    public java.util.Set<String> watchedKinds() {
        EngineLoop l = loop;
        Session session = l == null ? null : l.session();
        return session == null ? java.util.Set.of() : session.cache.jobs.keySet().stream()
                .map(dev.sluice.jobs.JobKind::integrationName).collect(java.util.stream.Collectors.toSet());
    }

    /** Where WorkloadPriorityClass values are looked up (the operator's cache of them). */
    void workloadPriorityClasses(Function<String, Optional<Integer>> lookup) {
        this.workloadPriorityClasses = lookup;
    }

    /** From any thread: something changed that the current session should look at. */
    void submit(Ref ref) {
        EngineLoop l = loop;
        if (l != null) {
            l.submit(ref);
        }
    }

    public Role role() {
        return role;
    }

    /**
     * Ready: begun (the operator started, which in mode all waits for the HTTPS port), taking part in leader election
     * (its Lease requests succeed), and either not leading (a standby serves webhooks and can take over) or leading with
     * caches synced (every informer's first list done: a failed one is retried meanwhile) and the engine rebuilt.
     */
    public boolean ready() {
        if (!lifecycle.mode().runsController()) {
            return true;
        }
        EngineLoop l = loop;
        return begun && electionProblem() == null && (role != Role.leading || (l != null && l.rebuilt() && l.cachesSynced()));
    }

    /** Why this replica cannot take part in leader election (forbidden, or no Lease request succeeded lately), or null. */
    public String electionProblem() {
        LeaderElection e = election;
        return e == null ? null : e.problem();
    }

    /** Alive: the engine loop (when leading) has not died and came round recently. */
    public boolean alive(Duration maxSilence) {
        EngineLoop l = loop;
        if (role != Role.leading || l == null) {
            return true;
        }
        if (!l.rebuilt()) {
            return l.alive();
        }
        return l.alive() && System.currentTimeMillis() - l.heartbeatMillis() < maxSilence.toMillis();
    }

    /**
     * Why informers of the leading session have not listed, one line each ("could not list Pods (v1): the API server
     * answered HTTP 403 ..."): missing RBAC, a conversion webhook not reachable; empty otherwise.
     */
    public java.util.List<String> listProblems() {
        EngineLoop l = loop;
        Session session = l == null ? null : l.session();
        return session == null ? java.util.List.of() : session.cache.listProblems();
    }

    public String problem() {
        EngineLoop l = loop;
        return l == null || l.failure() == null ? null : l.failure().toString();
    }

    /**
     * Runs a read-only look at the engine on the engine thread, between two passes (so it sees one consistent state);
     * fails with {@link NotLeadingException} when this replica runs no engine.
     */
    public <T> CompletableFuture<T> read(Function<LiveState, T> reader) {
        EngineLoop l = loop;
        if (l == null || !l.rebuilt()) {
            return CompletableFuture.failedFuture(new NotLeadingException());
        }
        CompletableFuture<T> out = new CompletableFuture<>();
        l.runOnEngine(() -> {
            try {
                out.complete(reader.apply(new LiveState(l.session())));
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        return out;
    }

    /** This replica does not lead: it holds no engine state. */
    public static final class NotLeadingException extends IllegalStateException {
        NotLeadingException() {
            super("this replica does not lead, so it holds no engine state");
        }
    }

    /** What happened to Workloads lately (kept across leader terms), for the dashboard. */
    private final dev.sluice.dashboard.Journal journal = dev.sluice.dashboard.Journal.standard();
    /** Run times told as Workloads finish, kept across terms so that a new term does not tell the history again. */
    private final FinishedRuns finishedRuns = new FinishedRuns();

    public dev.sluice.dashboard.Journal journal() {
        return journal;
    }

    /**
     * A Workload that only names {@code key}, for a reader that patches one (the forecast's annotation) to patch by:
     * fabric8 sends the PATCH alone, without reading the object first ({@code Writes#stub}).
     */
    public static dev.sluice.api.v1beta2.Workload patchTarget(dev.sluice.engine.WorkloadKey key) {
        return Writes.named(new dev.sluice.api.v1beta2.Workload(), key.namespace(), key.name());
    }

    /** The fair-sharing settings the leader's engine uses, for a standby's copy that must decide as it would. */
    public dev.sluice.engine.FairSharing fairSharingSettings() {
        return fairSharing.settings();
    }

    /** The admission-fair-sharing settings the leader's engine uses, for a standby's copy. */
    public dev.sluice.engine.AdmissionFairSharing admissionFairSharingSettings() {
        return admissionFairSharing.settings();
    }
}
