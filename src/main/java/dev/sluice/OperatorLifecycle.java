package dev.sluice;

import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.HttpsServerStart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Starts the controller when the mode includes it. QOSDK fixes {@code start-operator} at build time, so the jar is
 * built with it off and the mode decides at run time; in webhook mode the operator bean is never touched and no
 * cluster connection is made.
 *
 * <p>In mode {@code all} the controller starts only once the HTTPS port listens: an object still stored as v1beta1
 * (a cluster that ran Kueue 0.15 or older) reaches the controller's informers through this process's own
 * {@code /convert}, so an informer that listed before the port was open would wait for itself. Quarkus opens the port
 * after every StartupEvent observer returned, so the start is triggered by {@link HttpsServerStart} and runs on a thread
 * of its own (the operator's start waits for its informers' first lists; the probes and webhooks must not wait for it).
 * In mode {@code controller} nothing of this process is needed first: it starts on StartupEvent, on that thread too.
 * When the start is done, {@link Started} is fired on the start thread (the controller runtime begins then).
 */
@ApplicationScoped
public class OperatorLifecycle {

    private static final Logger LOG = Logger.getLogger(OperatorLifecycle.class);

    /** Fired once the operator has started (its informers listed, or are being retried): the controller may begin. */
    public record Started() {
    }

    private final SluiceMode mode;
    private final Instance<Operator> operator;
    private final Event<Started> started;
    private final CountDownLatch done = new CountDownLatch(1);
    private Thread starter;
    private boolean stopping;

    public OperatorLifecycle(@ConfigProperty(name = "sluice.mode", defaultValue = "all") SluiceMode mode,
            Instance<Operator> operator, Event<Started> started) {
        this.mode = mode;
        this.operator = operator;
        this.started = started;
    }

    void onStart(@Observes StartupEvent event) {
        LOG.infof("Sluice mode: %s", mode);
        if (mode.runsController() && !mode.servesWebhooks()) {
            startController();
        }
    }

    /** The HTTPS port (webhooks and /convert) listens now. */
    void onHttpsListening(@ObservesAsync HttpsServerStart event) {
        if (mode.runsController() && mode.servesWebhooks()) {
            startController();
        }
    }

    private synchronized void startController() {
        if (starter != null || stopping) {
            return;
        }
        starter = new Thread(() -> {
            try {
                operator.get().start();
                synchronized (this) {
                    if (stopping) {
                        return;
                    }
                }
                started.fire(new Started());
            } catch (RuntimeException e) {
                if (!stopping) {
                    LOG.error("the controller could not start", e);
                }
            } finally {
                done.countDown();
            }
        }, "sluice-controller-start");
        starter.setDaemon(true);
        starter.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        Thread t;
        synchronized (this) {
            stopping = true;
            t = starter;
        }
        if (t != null) {
            t.interrupt(); // a start still waiting for its informers' first lists gives up
            operator.get().stop();
        }
    }

    /**
     * Waits until the controller's start is done (the operator started and the controller runtime began), at most
     * {@code timeout}; false when it is not done by then or this mode starts no controller.
     */
    public boolean awaitStarted(Duration timeout) throws InterruptedException {
        return mode.runsController() && done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public SluiceMode mode() {
        return mode;
    }
}
