package dev.sluice.controller.cache;

import dev.sluice.controller.write.WriteFailures;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * What one of Sluice's informers does when a list or watch fails. fabric8 stops an informer whose first list failed, so
 * a controller that started while the API server could not answer yet (its conversion webhook, perhaps this very
 * process, not listening yet; RBAC not granted yet) would never sync. Here the first list is tried again with fabric8's
 * back-off (the watch reconnect interval, doubling to 32 times it), each failure logged once with what the API server
 * answered; the caches are not synced, so the controller is not ready, meanwhile. After the first list, fabric8's own
 * rule: a failed list is retried, a watch that failed for good stops the informer.
 */
final class InformerRetry implements ExceptionHandler {

    private static final Logger LOG = Logger.getLogger(InformerRetry.class);
    /** fabric8's ExponentialBackoffIntervalCalculator: the interval doubles up to 2^5 times the first. */
    private static final int MAX_DOUBLINGS = 5;

    private final String what;
    private final boolean retryFirstList;
    private final long firstIntervalMillis;
    private final Runnable answered;
    private final AtomicInteger failedLists = new AtomicInteger();
    /** What the API server answered to the last failed list or watch, for the readiness check; null before any. */
    private volatile String lastFailure;

    /**
     * @param what the objects listed, as a user reads it (e.g. "Workloads (kueue.x-k8s.io/v1beta2)")
     * @param retryFirstList whether a failed first list is tried again; a job kind's is not: that kind is left out and
     *        looked for again later ({@link ClusterCache#startAndSync}), so a kind Sluice may not read never holds up the rest
     * @param firstIntervalMillis the client's watch reconnect interval, fabric8's first back-off
     * @param answered told of every failed attempt (an answer, so the list is not stalled)
     */
    InformerRetry(String what, boolean retryFirstList, long firstIntervalMillis, Runnable answered) {
        this.what = what;
        this.retryFirstList = retryFirstList;
        this.firstIntervalMillis = firstIntervalMillis;
        this.answered = answered;
    }

    @Override
    public boolean retryAfterException(boolean isStarted, Throwable t) {
        answered.run();
        lastFailure = "could not list " + what + ": " + answer(t);
        if (!isStarted && !retryFirstList) {
            return false; // the informer stops; startAndSync says so and leaves the kind out for now
        }
        if (!isStarted) {
            int attempt = failedLists.incrementAndGet();
            long retryMillis = firstIntervalMillis << Math.min(attempt - 1, MAX_DOUBLINGS);
            LOG.warnf("could not list %s (attempt %d): %s; listing again in %s s, and the controller is not ready "
                    + "until it succeeds", what, attempt, answer(t), seconds(retryMillis));
            return true;
        }
        if (t instanceof WatcherException) {
            return false; // fabric8's rule (it logs the stop)
        }
        LOG.warnf("could not list or watch %s: %s; trying again with back-off", what, answer(t));
        return true;
    }

    /** "could not list Pods (v1): the API server answered HTTP 403 ...", the last failure; null before any. */
    String lastFailure() {
        return lastFailure;
    }

    /** How many first lists failed so far. */
    int failedLists() {
        return failedLists.get();
    }

    /** "the API server answered HTTP 500 (InternalError): conversion webhook ... failed: ...", or the client's failure. */
    static String answer(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof KubernetesClientException e) {
                return e.getCode() > 0 ? "the API server answered " + WriteFailures.describe(e)
                        : "no answer from the API server (" + e.getMessage() + ")";
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return "no answer from the API server (" + t + ")";
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? String.valueOf(millis / 1000) : String.valueOf(millis / 1000.0);
    }
}
