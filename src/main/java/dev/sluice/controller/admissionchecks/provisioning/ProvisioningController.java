package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.OperatorLifecycle;
import dev.sluice.controller.ControllerRuntime;
import dev.sluice.controller.write.EventRate;
import dev.sluice.metrics.AdmissionEvents;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Runs the ProvisioningRequest admission check controller ({@link ProvisioningRoom}) while this replica leads, when
 * {@code sluice.admission-checks.provisioning.enabled} (on by default: Kueue dropped its ProvisioningACC gate when the
 * controller went GA) and the cluster serves {@code autoscaling.x-k8s.io/v1} ProvisioningRequests (as Kueue, which
 * skips the controller without them; here they are looked for again every
 * {@code sluice.admission-checks.provisioning.recheck}).
 *
 * <p>It follows {@link ControllerRuntime#role()} (every {@value #FOLLOW_MILLIS} ms): a new term gets a new room built
 * from the cluster, a lost one closes it. Its writes are guarded by resourceVersion, so a room that outlives its term
 * by that moment writes nothing over a newer leader's writes.
 */
@ApplicationScoped
public class ProvisioningController {

    private static final Logger LOG = Logger.getLogger(ProvisioningController.class);
    static final long FOLLOW_MILLIS = 500;

    private final ControllerRuntime runtime;
    private final KubernetesClient client;
    private final OperatorLifecycle lifecycle;
    private final boolean enabled;
    private final Duration crdRecheck;
    @Inject
    AdmissionEvents metrics;
    @Inject
    Clock clock;
    @ConfigProperty(name = "sluice.events.qps", defaultValue = "20")
    double eventsQps;
    @ConfigProperty(name = "sluice.events.burst", defaultValue = "30")
    int eventsBurst;

    private ScheduledExecutorService follower;
    private volatile ProvisioningRoom room;
    private long nextServedCheckMillis;
    private boolean toldNotServed;

    public ProvisioningController(ControllerRuntime runtime, KubernetesClient client, OperatorLifecycle lifecycle,
            @ConfigProperty(name = "sluice.admission-checks.provisioning.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "sluice.admission-checks.provisioning.recheck", defaultValue = "30s") Duration crdRecheck) {
        this.runtime = runtime;
        this.client = client;
        this.lifecycle = lifecycle;
        this.enabled = enabled;
        this.crdRecheck = crdRecheck;
    }

    void onStart(@Observes StartupEvent event) {
        if (!enabled || !lifecycle.mode().runsController()) {
            return;
        }
        follower = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-provisioning-term");
            t.setDaemon(true);
            return t;
        });
        follower.scheduleWithFixedDelay(this::follow, FOLLOW_MILLIS, FOLLOW_MILLIS, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (follower != null) {
            follower.shutdownNow();
        }
        stopRoom();
    }

    private synchronized void follow() {
        try {
            boolean leading = runtime.role() == ControllerRuntime.Role.leading;
            if (!leading) {
                stopRoom();
                nextServedCheckMillis = 0;
                return;
            }
            if (room == null && System.currentTimeMillis() >= nextServedCheckMillis) {
                if (!served(client)) {
                    if (!toldNotServed) {
                        LOG.infof("ProvisioningRequests (%s) are not served by this cluster (no cluster autoscaler with "
                                + "them installed?): the %s admission check controller waits for them",
                                ProvisioningRequests.API_VERSION, WorkloadReconciler.CONTROLLER_NAME);
                        toldNotServed = true;
                    }
                    nextServedCheckMillis = System.currentTimeMillis() + crdRecheck.toMillis();
                    return;
                }
                toldNotServed = false;
                ProvisioningRoom next = new ProvisioningRoom(client, metrics, clock, new EventRate(eventsQps, eventsBurst));
                room = next;
                next.start();
                LOG.infof("the %s admission check controller runs", WorkloadReconciler.CONTROLLER_NAME);
            }
        } catch (RuntimeException e) {
            LOG.warnf(e, "the %s admission check controller could not start; tried again", WorkloadReconciler.CONTROLLER_NAME);
            stopRoom();
        }
    }

    private synchronized void stopRoom() {
        ProvisioningRoom current = room;
        room = null;
        if (current != null) {
            current.close();
        }
    }

    /** Whether the cluster serves ProvisioningRequests (discovery of their group version). */
    static boolean served(KubernetesClient client) {
        try {
            APIResourceList list = client.getApiResources(ProvisioningRequests.API_VERSION);
            return list != null && list.getResources() != null
                    && list.getResources().stream().anyMatch(r -> ProvisioningRequests.PLURAL.equals(r.getName()));
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /**
     * Drops the room and builds it again from the cluster, as a new term would (tests); returns once it is listed.
     */
    public synchronized void restart() throws Exception {
        stopRoom();
        nextServedCheckMillis = 0;
        follow();
        ProvisioningRoom r = room;
        if (r != null) {
            r.started().get(30, TimeUnit.SECONDS);
        }
    }

    /** Whether a room runs now (tests). */
    public boolean running() {
        return room != null;
    }
}
